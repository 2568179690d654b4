// GET /__mock/requests (the request journal, newest first, filtered) and DELETE /__mock/requests (empties it).
import type { Hono } from 'hono';
import { parseJournalQuery, type RequestJournal } from '../../platform/request-journal.ts';

export function journalRoutes(app: Hono, journal: RequestJournal): void {
  app.get('/requests', async (c) => {
    const parsed = parseJournalQuery(c.req.query(), journal.capacity);
    if (!parsed.ok) return c.json({ error: 'Validation failed', details: parsed.details }, 400);
    const data = await journal.read(parsed.filter);
    return c.json({ data, meta: { capacity: journal.capacity, ...journal.stats() } });
  });
  app.delete('/requests', (c) => {
    journal.clear();
    return c.json({ success: true });
  });
}
