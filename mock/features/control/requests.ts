// GET /__mock/requests (the request journal, newest first, filtered; streamed) and DELETE /__mock/requests (empties it).
import type { Hono } from 'hono';
import { type JournalFilter, parseJournalQuery, type RequestJournal } from '../../platform/request-journal.ts';

/** `{ data, meta }` streamed as the journal writes it, so that a long read never holds the event loop for long. */
function journalBody(journal: RequestJournal, filter: JournalFilter): ReadableStream<Uint8Array> {
  const utf8 = new TextEncoder();
  const pieces = journal.readJson(filter);
  let opened = false;
  return new ReadableStream({
    async pull(out) {
      if (!opened) {
        opened = true;
        return out.enqueue(utf8.encode('{"data":'));
      }
      const next = await pieces.next();
      if (!next.done) return out.enqueue(utf8.encode(next.value));
      out.enqueue(utf8.encode(`,"meta":${JSON.stringify({ capacity: journal.capacity, ...journal.stats() })}}`));
      out.close();
    },
    cancel: () => void pieces.return(undefined),
  });
}

export function journalRoutes(app: Hono, journal: RequestJournal): void {
  app.get('/requests', async (c) => {
    const parsed = parseJournalQuery(c.req.query(), journal.capacity);
    if (!parsed.ok) return c.json({ error: 'Validation failed', details: parsed.details }, 400);
    return c.body(journalBody(journal, parsed.filter), 200, { 'Content-Type': 'application/json' });
  });
  app.delete('/requests', (c) => {
    journal.clear();
    return c.json({ success: true });
  });
}
