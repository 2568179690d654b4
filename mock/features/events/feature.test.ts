import { Hono } from 'hono';
import { activeReadings } from '../../readings/active.ts';
import { playReadings } from '../../readings/play.ts';
import { createStore } from '../../platform/store.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../runtime/node.ts';
import type { EngineDeps, SeedFile } from '../../platform/deps.ts';
import { createClock } from '../../platform/clock.ts';
import { eventsContract } from './contract.ts';
import { WEBHOOK_FORMAT_NAMES as FORMAT_NAMES } from '../../../spec/runtime/webhook-codec.ts';
import { createEvents, type EventsOptions } from './feature.ts';
import { decodeBody, startReceiver, type Receiver, type Reply } from '../../../spec/runtime/webhook-receiver.ts';

const SEED = {
  organizations: [
    { id: 'org-1', name: 'One' },
    { id: 'org-2', name: 'Two' },
  ],
  keys: [],
} as unknown as SeedFile;
const note = {
  id: '0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f',
  session_id: '5f4e3d2c-1b0a-4987-8654-3210fedcba98',
  patient_id: '7281928374650192837',
  template_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
};
const doc = { id: '2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f', patient_id: '7281928374650192837', external_id: 'ehr-doc-77' };
const contract = eventsContract();

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function setup(opts: Partial<EventsOptions> = {}) {
  // The simulator uses only the clock, config, organizations and readings (none: the kit's) of its deps.
  const clock = createClock(0.01);
  const deps = {
    clock,
    config: { publicBaseUrl: 'http://127.0.0.1:4010/ext-api/v1' },
    organizations: SEED.organizations.map((o) => o.id),
    readings: playReadings(activeReadings(), createStore({})),
  } as unknown as Omit<EngineDeps, 'events'>;
  const sim = createEvents({ deps, allowPrivateWebhooks: true, io: nodeRuntime.webhooks, ...opts });
  const control = new Hono();
  sim.feature.control!(control);
  void sim.feature.seed?.(SEED);
  const app = new Hono().route('/__mock', control);
  cleanup.push(
    () => sim.close(),
    () => clock.cancelAll(),
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`http://127.0.0.1/__mock${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
  };
  return { sim, deps, call };
}

async function receiver(respond?: (n: number) => Reply): Promise<Receiver> {
  const r = await startReceiver(respond);
  cleanup.push(() => r.close());
  return r;
}

describe('webhook registration (control API)', () => {
  it('EVT-025, EVT-028: registers with defaults (JSON, first seeded organization) and lists and deletes', async () => {
    const { call } = setup();
    const created = await call('POST', '/webhooks', { name: 'local', url: 'http://127.0.0.1:9/hook', event: 'NOTE_CREATED' });
    expect(created.status).toBe(201);
    expect(created.body!.data).toMatchObject({
      name: 'local',
      format: 'JSON',
      organization_id: 'org-1',
      event: 'NOTE_CREATED',
      headers: {},
    });
    const id = created.body!.data.id as string;
    expect((await call('GET', '/webhooks')).body!.data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await call('GET', `/webhooks/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await call('DELETE', `/webhooks/${id}`)).status).toBe(404);
    expect((await call('GET', '/webhooks')).body!.data).toEqual([]);
  });

  it.each([
    [{ url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED' }, 'name'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_DELETED' }, 'event'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', format: 'YAML' }, 'format'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', headers: { 'Content-Type': 'text/plain' } }, 'headers.Content-Type'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', headers: { 'X-A': 'a\r\nX-B: b' } }, 'headers.X-A'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', headers: { 'bad name': 'v' } }, 'headers.bad name'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', headers: ['X-A'] }, 'headers'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', organization_id: 'org-9' }, 'organization_id'],
    [{ name: 'x', url: 'http://127.0.0.1:9/', event: 'NOTE_CREATED', secret: 'y' }, 'secret'],
    [{ name: 'x', url: 'https://169.254.169.254/', event: 'NOTE_CREATED' }, 'url'],
    [{ name: 'x', event: 'NOTE_CREATED' }, 'url'],
  ])('400 with the reason: %j -> details.%s', async (body, field) => {
    const { call } = setup();
    const res = await call('POST', '/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body!.error).toMatch(/^Invalid webhook/);
    expect(res.body!.details[field]).toEqual(expect.any(String));
  });

  it('EVT-026: without --allow-private-webhooks a local receiver is refused, and the message names the flag', async () => {
    const { call } = setup({ allowPrivateWebhooks: false });
    const res = await call('POST', '/webhooks', { name: 'x', url: 'http://127.0.0.1:3000/hook', event: 'NOTE_CREATED' });
    expect(res.status).toBe(400);
    expect(res.body!.error).toContain('--allow-private-webhooks');
  });

  it('EVT-027, EVT-028: accepts every format and event of the spec; rejects non-JSON bodies clearly', async () => {
    const { call } = setup();
    for (const event of contract.kinds)
      for (const format of FORMAT_NAMES)
        expect((await call('POST', '/webhooks', { name: 'x', url: 'http://127.0.0.1:9/', event, format })).status).toBe(201);
    expect((await call('POST', '/webhooks', '{"name":')).status).toBe(400);
    expect((await call('POST', '/webhooks', '[]')).status).toBe(400);
  });
});

describe('emission: each kind, each format, only the registering organization', () => {
  it('EVT-001, EVT-028, EVT-029: each event kind arrives with a valid payload in each format', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    const hooks = new Map<string, { event: string; format: string }>();
    for (const event of contract.kinds)
      for (const format of FORMAT_NAMES) {
        const res = await call('POST', '/webhooks', {
          name: `${event} ${format}`,
          url: `${rcv.url}?format=${encodeURIComponent(format)}`,
          event,
          format,
          headers: { 'X-Secret': 'shh' },
        });
        expect(res.status).toBe(201);
        hooks.set(res.body!.data.id, { event, format });
      }
    sim.events.note('org-1', 'NOTE_CREATED', note, 'session');
    sim.events.note('org-1', 'NOTE_REGENERATED', note, null);
    sim.events.note('org-1', 'NOTE_UPDATED', note, 'api');
    sim.events.documentStatusChanged('org-1', { ...doc, status: 'completed', error: null });
    const got = await rcv.waitFor(contract.kinds.length * FORMAT_NAMES.length);
    await sim.idle();
    const seen = new Set<string>();
    for (const r of got) {
      const body = decodeBody(r);
      const c = contract.byEvent.get(String(body.event))!;
      // Form Data and XML carry null as empty / nil; map back before validating against the spec.
      const format = new URL(r.path, 'http://x').searchParams.get('format')!;
      const value = format === 'Form Data' ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === '' ? null : v])) : body;
      expect(c.validate(value), JSON.stringify(c.validate.errors)).toBe(true);
      expect(Object.keys(body)).toEqual(c.fields);
      expect(r.headers['x-secret']).toBe('shh');
      seen.add(`${body.event}|${format}`);
    }
    expect(seen.size).toBe(contract.kinds.length * FORMAT_NAMES.length);
    const deliveries = (await call('GET', '/deliveries')).body!.data as Array<{ state: string; webhook_id: string }>;
    expect(deliveries).toHaveLength(hooks.size);
    expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
  });

  it("EVT-030: another organization's webhook receives nothing", async () => {
    const mine = await receiver();
    const theirs = await receiver();
    const { sim, call } = setup();
    await call('POST', '/webhooks', { name: 'mine', url: mine.url, event: 'NOTE_CREATED', organization_id: 'org-1' });
    await call('POST', '/webhooks', { name: 'theirs', url: theirs.url, event: 'NOTE_CREATED', organization_id: 'org-2' });
    sim.events.note('org-1', 'NOTE_CREATED', note, null);
    await mine.waitFor(1);
    await sim.idle();
    expect(theirs.received).toHaveLength(0);
  });

  it('EVT-031: deliveries start with the next matching event; earlier events are not replayed', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    sim.events.note('org-1', 'NOTE_CREATED', { ...note, id: '11111111-1111-4111-8111-111111111111' }, null);
    await call('POST', '/webhooks', { name: 'late', url: rcv.url, event: 'NOTE_CREATED' });
    sim.events.note('org-1', 'NOTE_CREATED', note, null);
    const [r] = await rcv.waitFor(1);
    await sim.idle();
    expect(rcv.received).toHaveLength(1);
    expect(decodeBody(r!).note_id).toBe(note.id);
  });

  it('a webhook receives only its own event kind', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    await call('POST', '/webhooks', { name: 'docs', url: rcv.url, event: 'DOCUMENT_STATUS_CHANGED' });
    sim.events.note('org-1', 'NOTE_CREATED', note, null);
    await sim.idle();
    expect(rcv.received).toHaveLength(0);
    sim.events.documentStatusChanged('org-1', { ...doc, status: 'failed', error: 'Unreadable' });
    sim.events.documentStatusChanged('org-1', { ...doc, status: 'completed', error: null });
    const got = await rcv.waitFor(2);
    expect(got.map((r) => decodeBody(r).status)).toEqual(['failed', 'completed']);
  });

  it('GET /__mock/deliveries filters by webhook_id and event and rejects an unknown event', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    const a = (await call('POST', '/webhooks', { name: 'a', url: rcv.url, event: 'NOTE_CREATED' })).body!.data.id;
    await call('POST', '/webhooks', { name: 'b', url: rcv.url, event: 'NOTE_UPDATED' });
    sim.events.note('org-1', 'NOTE_CREATED', note, null);
    sim.events.note('org-1', 'NOTE_UPDATED', note, null);
    await rcv.waitFor(2);
    await sim.idle();
    const byHook = (await call('GET', `/deliveries?webhook_id=${a}`)).body!.data;
    expect(byHook).toHaveLength(1);
    expect(byHook[0]).toMatchObject({ webhook_id: a, event: 'NOTE_CREATED', state: 'delivered', payload: { note_id: note.id } });
    expect(byHook[0].attempts).toEqual([{ at: expect.any(String), status: 200, duration_ms: expect.any(Number), delay_ms: 0 }]);
    expect((await call('GET', '/deliveries?event=NOTE_UPDATED')).body!.data).toHaveLength(1);
    expect((await call('GET', '/deliveries?event=NOPE')).status).toBe(400);
  });

  it('reset clears deliveries and keeps registrations', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    await call('POST', '/webhooks', { name: 'a', url: rcv.url, event: 'NOTE_CREATED' });
    sim.events.note('org-1', 'NOTE_CREATED', note, null);
    await rcv.waitFor(1);
    await sim.idle();
    await sim.feature.seed!(SEED);
    expect((await call('GET', '/deliveries')).body!.data).toEqual([]);
    expect((await call('GET', '/webhooks')).body!.data).toHaveLength(1);
  });

  it('a payload that would break the spec is recorded failed and not sent; the caller is not disturbed', async () => {
    const rcv = await receiver();
    const { sim, call } = setup();
    await call('POST', '/webhooks', { name: 'a', url: rcv.url, event: 'NOTE_CREATED' });
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(() => sim.events.note('org-1', 'NOTE_CREATED', { ...note, patient_id: 'not digits' }, null)).not.toThrow();
    } finally {
      console.warn = warn;
    }
    const [d] = (await call('GET', '/deliveries')).body!.data;
    expect(d).toMatchObject({ state: 'failed', event: 'NOTE_CREATED' });
    expect(d.attempts[0].error).toMatch(/does not match NoteEvent/);
    await sim.idle();
    expect(rcv.received).toHaveLength(0);
  });
});
