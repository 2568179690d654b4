// The webhook-delivery checks against the mock (they pass, assumed rules skipped in the documented profile, writes
// skipped with --read-only, nothing left behind), then each against a service that delivers wrongly on purpose.
// The mock's deliveries go straight to the check's own probe, so a loopback proxy in front of the mock rewrites
// every webhook registration (POST /__mock/webhooks) to point at a forwarder, which plays the broken sender: it
// passes each attempt on to the registered URL after altering it (method, headers, body, timing, extra attempts,
// redirects followed, a timeout kept open) and answers the mock with what the receiver said.
import { describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { MESSAGES } from '../../mock/features/documents/messages.ts';
import { HOP_BY_HOP, jsonOf, plainHeaders, serveOnLoopback } from '../testing/broken-proxy.ts';
import { checksNamed, describeCheckFile } from '../testing/check-file.ts';

// ----- the broken sender -----

/** One attempt as the forwarder sends it on. */
interface Outgoing {
  target: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
}

interface Breaks {
  /** Alters attempt n (1-based: a retry carries the same bytes) of a delivery before it goes on. */
  send?(d: Outgoing, n: number): void;
  /** Delay (ms) before attempt n goes on. */
  delay?(n: number): number;
  /** Delay (ms) before the receiver's answer to attempt n goes back to the sender. */
  answerLate?(n: number): number;
  /** Follows a 3xx Location (with the same POST). */
  follow?: boolean;
  /** The status the sender makes of the receiver's answer. */
  status?(s: number): number;
  /** When the mock gives up on an attempt, keep the receiver's request open this much longer. */
  outlive?: number;
  /** Bodies to send to the same target before this attempt (events the service should not send). */
  before?(d: Outgoing, n: number): Promise<Buffer[]> | Buffer[];
  /** Sends this attempt again after it was answered with `status` (more attempts than allowed). */
  again?(status: number, n: number): boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One POST to `d.target`; resolves with the status (and Location). `hold`: resolves a handle to abort it. */
function post(d: Outgoing, onRequest?: (abort: () => void) => void): Promise<{ status: number; location?: string }> {
  return new Promise((resolve) => {
    const req = request(
      d.target,
      { method: d.method, headers: { ...d.headers, 'content-length': String(d.body.length) }, agent: false },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      },
    );
    req.on('error', () => resolve({ status: 0 }));
    onRequest?.(() => req.destroy());
    req.end(d.body);
  });
}

/** The forwarder: /f/<encoded target URL>. */
async function startForwarder(b: Breaks): Promise<{ origin: string; close(): Promise<void> }> {
  const attempts = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', async () => {
      const target = new URL(decodeURIComponent((incoming.url ?? '').replace(/^\/f\//, '')));
      const d: Outgoing = {
        target,
        method: incoming.method ?? 'POST',
        headers: plainHeaders(incoming.headers),
        body: Buffer.concat(chunks),
      };
      const key = `${target.href}\n${d.body.toString('utf8')}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      let abort: (() => void) | undefined;
      outgoing.on('close', () => {
        if (!outgoing.writableEnded && abort) setTimeout(abort, b.outlive ?? 0);
      });
      for (const extra of (await b.before?.(d, n)) ?? []) await post({ ...d, body: extra });
      await sleep(b.delay?.(n) ?? 0);
      b.send?.(d, n);
      let r = await post(d, (a) => (abort = a));
      for (let hops = 0; b.follow && r.status >= 300 && r.status < 400 && r.location && hops < 3; hops++)
        r = await post({ ...d, target: new URL(r.location, d.target) });
      if (b.again?.(r.status, n)) void sleep(20).then(() => post(d));
      await sleep(b.answerLate?.(n) ?? 0);
      if (!outgoing.destroyed) outgoing.writeHead(b.status?.(r.status) ?? (r.status || 502)).end();
    });
  });
  return serveOnLoopback(server);
}

/** A loopback proxy in front of the mock that sends every webhook registration's deliveries through the forwarder. */
async function startRegistrationProxy(mockOrigin: string, forwarder: string, onApi?: (path: string, status: number, body: any) => void) {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', async () => {
      let body = Buffer.concat(chunks);
      const url = incoming.url ?? '/';
      if (incoming.method === 'POST' && url === '/__mock/webhooks') {
        const j = jsonOf(body);
        if (j && typeof j.url === 'string') {
          j.url = `${forwarder}/f/${encodeURIComponent(j.url)}`;
          body = Buffer.from(JSON.stringify(j));
        }
      }
      try {
        const r = await fetch(mockOrigin + url, {
          method: incoming.method,
          headers: plainHeaders(incoming.headers),
          body: body.length && incoming.method !== 'GET' ? new Uint8Array(body) : undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(20_000),
        });
        const out = Buffer.from(await r.arrayBuffer());
        const headers: Record<string, string> = {};
        r.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k) && k !== 'content-encoding') headers[k] = v;
        });
        onApi?.(url, r.status, jsonOf(out));
        outgoing.writeHead(r.status, { ...headers, 'content-length': String(out.length) }).end(out);
      } catch (err) {
        outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`registration-proxy: ${(err as Error).message}`);
      }
    });
  });
  return serveOnLoopback(server);
}

// ----- helpers of the variants -----
const editJson = (d: Outgoing, fn: (j: any) => void) => {
  const j = jsonOf(d.body);
  if (!j || typeof j !== 'object') return;
  fn(j);
  d.body = Buffer.from(JSON.stringify(j));
};
const isXml = (d: Outgoing) => /xml/.test(d.headers['content-type'] ?? '');
const isForm = (d: Outgoing) => /x-www-form-urlencoded/.test(d.headers['content-type'] ?? '');

/** Ids of uploads whose extraction was not queued (seen by the registration proxy), for the EVT-011 variant. */
const unqueued = new Set<string>();

// One broken sender per check: [check, rule it must fail on, what the sender does wrong].
const broken: Array<[string, string, Breaks]> = [
  ['webhook_posted_to_registered_url', 'EVT-001', { send: (d) => void (d.target = new URL(d.target.pathname, d.target)) }],
  [
    'webhook_payload_identifiers_only',
    'EVT-002',
    {
      // The note's own text in `source` (a string field of NoteEvent): no field is added, content leaks.
      async before(d) {
        const j = jsonOf(d.body);
        if (j?.note_id && j.source === null) {
          const r = await fetch(`${file.mock().url}/notes/${j.note_id}`, { headers: { 'X-API-Key': file.mainKey() } });
          leak.set(
            d.body.toString('utf8'),
            String(((await r.json()) as { data?: { content?: string } }).data?.content ?? '').slice(0, 200),
          );
        }
        return [];
      },
      send(d) {
        const content = leak.get(d.body.toString('utf8'));
        if (content) editJson(d, (j) => (j.source = content));
      },
    },
  ],
  [
    'note_regenerated_event_fetch',
    'EVT-005',
    { send: (d) => editJson(d, (j) => j.event === 'NOTE_REGENERATED' && (j.note_id = randomUUID())) },
  ],
  [
    'unqueued_upload_fires_no_event',
    'EVT-011',
    {
      before(d, n) {
        const j = jsonOf(d.body);
        if (n !== 1 || j?.event !== 'DOCUMENT_STATUS_CHANGED') return [];
        return [...unqueued].filter((id) => id !== j.document_id).map((id) => Buffer.from(JSON.stringify({ ...j, document_id: id })));
      },
    },
  ],
  [
    'webhook_format_encoding',
    'EVT-028',
    {
      send(d) {
        if (!isForm(d)) return;
        d.body = Buffer.from(JSON.stringify(Object.fromEntries(new URLSearchParams(d.body.toString('utf8')))));
        d.headers['content-type'] = 'application/json';
      },
    },
  ],
  ['webhook_static_headers_every_delivery', 'EVT-029', { send: (d, n) => void (n > 1 && delete d.headers['x-crc-secret']) }],
  [
    'webhook_no_replay_before_registration',
    'EVT-031',
    {
      // On a webhook's first document event, the documents of the patient that already ended are sent first.
      async before(d, n) {
        const j = jsonOf(d.body);
        if (n !== 1 || j?.event !== 'DOCUMENT_STATUS_CHANGED' || replayed.has(d.target.href)) return [];
        replayed.add(d.target.href);
        const r = await fetch(`${file.mock().url}/patients/${j.patient_id}/documents?limit=100`, {
          headers: { 'X-API-Key': file.mainKey() },
        });
        const docs = ((await r.json()) as { data?: any[] }).data ?? [];
        return docs
          .filter((x) => x.id !== j.document_id && (x.status === 'completed' || x.status === 'failed'))
          .map((x) => Buffer.from(JSON.stringify({ ...j, document_id: x.id, external_id: x.external_id ?? null, status: x.status })));
      },
    },
  ],
  ['webhook_delivery_is_post', 'EVT-032', { send: (d, n) => void (n > 1 && (d.method = 'PUT')) }],
  ['webhook_attempt_times_out', 'EVT-033', { outlive: 600 }],
  ['webhook_at_most_three_attempts', 'EVT-034', { again: (status, n) => n === 3 && status >= 500 }],
  // 400 ms more before attempt 2 (at the mock's 0.01, 40 s of service time instead of 1 s): far past what load adds,
  // and each half within the mock's 300 ms attempt timeout.
  ['webhook_backoff_exponential', 'EVT-035', { answerLate: (n) => (n === 1 ? 200 : 0), delay: (n) => (n === 2 ? 200 : 0) }],
  ['webhook_3xx_not_followed', 'EVT-038', { follow: true }],
  ['webhook_no_signature_secret_header', 'EVT-041', { send: (d) => void (d.headers['x-webhook-signature'] = `sha256=${'ab'.repeat(32)}`) }],
  [
    'xml_delivery_layout',
    'EVT-043',
    { send: (d) => isXml(d) && void (d.body = Buffer.from(d.body.toString('utf8').replace(/<(\w+) xsi:nil="true"\/>/g, '<$1></$1>'))) },
  ],
  [
    'form_data_delivery_layout',
    'EVT-044',
    {
      send: (d) =>
        isForm(d) &&
        void (d.body = Buffer.from(new URLSearchParams([...new URLSearchParams(d.body.toString('utf8'))].reverse()).toString())),
    },
  ],
  ['webhook_2xx_acknowledges', 'EVT-045', { status: (s) => (s > 200 && s < 300 ? 500 : s) }],
  ['only_four_event_kinds', 'EVT-047', { send: (d) => editJson(d, (j) => j.event === 'NOTE_UPDATED' && (j.event = 'NOTE_EDITED')) }],
  ['webhook_delivery_limits', 'LIM-007', { outlive: 600 }],
];

const checks = checksNamed(broken.map(([n]) => n));
const LOG_JUDGED = new Set(['webhook_attempt_times_out', 'webhook_backoff_exponential', 'webhook_delivery_limits']);
const file = describeCheckFile('webhook-delivery checks', checks);
const replayed = new Set<string>();
const leak = new Map<string, string>();

// Not retried: each timing variant is off by hundreds of real milliseconds, past the TIMER_LATENESS_MS a busy machine
// is allowed, and a late timer only ever moves a broken sender further off.
describe('webhook-delivery checks against a broken sender (each fails on its rule)', () => {
  it('every check of the file has a broken sender', () => {
    expect(checks.map((c) => c.name).filter((n) => !broken.some(([b]) => b === n))).toEqual([]);
  });

  for (const [check, rule, breaks] of broken)
    it(`${check} fails on ${rule}`, async () => {
      const forwarder = await startForwarder(breaks);
      const proxy = await startRegistrationProxy(new URL(file.mock().url).origin, forwarder.origin, (path, status, b) => {
        if (/\/documents$/.test(path.split('?')[0]!) && status === 201 && b?.message === MESSAGES.uploaded && b.data?.id)
          unqueued.add(b.data.id);
      });
      try {
        const result = await file.expectFails(check, rule, { url: file.urlVia(proxy.origin) });
        // On the mock the timing checks judge the receiver's times against the mock's own log, not its clock alone.
        if (LOG_JUDGED.has(check))
          expect(result.failures.map((f) => f.expected).join('\n')).toMatch(/as the sender's log has it|when the sender gave it up/);
      } finally {
        await proxy.close();
        await forwarder.close();
      }
    }, 20_000);
});
