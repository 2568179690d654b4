// Control routes of the events simulator, mounted under /__mock (no API key, loopback only):
//   POST /webhooks, GET /webhooks, GET /webhooks/{id}, DELETE /webhooks/{id}, GET /deliveries?webhook_id=&event=
import type { Context, Hono } from 'hono';
import type { Deliverer } from './deliver.ts';
import type { Registry } from './registry.ts';

export interface RouteDeps {
  registry: Registry;
  deliverer: Deliverer;
  kinds: readonly string[];
}

const MAX_BODY = 64 * 1024;

async function readJson(c: Context): Promise<{ body: unknown } | Response> {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
    return c.json({ error: 'Unsupported Content-Type: expected application/json' }, 415);
  const text = await c.req.text();
  if (text.length > MAX_BODY) return c.json({ error: `Request body larger than ${MAX_BODY} bytes` }, 413);
  try {
    return { body: JSON.parse(text) };
  } catch {
    return c.json({ error: 'Malformed JSON body' }, 400);
  }
}

export function eventsControlRoutes(app: Hono, d: RouteDeps): void {
  app.post('/webhooks', async (c) => {
    const read = await readJson(c);
    if (read instanceof Response) return read;
    const result = await d.registry.register(read.body);
    if (!result.ok) return c.json({ error: result.error, details: result.details }, 400);
    return c.json({ data: result.webhook }, 201);
  });

  app.get('/webhooks', (c) => c.json({ data: d.registry.list() }));

  app.get('/webhooks/:id', (c) => {
    const hook = d.registry.get(c.req.param('id'));
    return hook ? c.json({ data: hook }) : c.json({ error: 'Webhook not found' }, 404);
  });

  app.delete('/webhooks/:id', (c) =>
    d.registry.remove(c.req.param('id')) ? c.body(null, 204) : c.json({ error: 'Webhook not found' }, 404),
  );

  app.get('/deliveries', (c) => {
    const webhook_id = c.req.query('webhook_id') || undefined;
    const event = c.req.query('event') || undefined;
    if (event && !d.kinds.includes(event))
      return c.json(
        { error: `event must be one of ${d.kinds.join(', ')}`, details: { event: `must be one of ${d.kinds.join(', ')}` } },
        400,
      );
    return c.json({ data: d.deliverer.list({ webhook_id, event }) });
  });
}
