// The fuzz stage: bad requests generated from the spec (mock/fuzz/cases.ts) and malformed HTTP framing, sent to the
// mock in default mode (--strict: Prism checks every answer against the contract) and engine-only. Asserts, for every
// answer: no 5xx; an error body valid against the spec's schema for that status (the operation's declared response,
// else Error / ValidationError); the rate-limit headers on every API answer; and /__mock/health answering after each
// batch. Prints the number of requests tried.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../spec/runtime/schemas.ts';
import { loadBundle } from '../../spec/runtime/bundle.ts';
import { escapeToken, resolvePointer, type JsonObject } from '../../spec/runtime/json-pointer.ts';
import { API_BASE } from '../platform/spec.ts';
import { normalizeTarget } from '../front/target.ts';
import { startMock, type MockMode, type RunningMock } from '../server.ts';
import { rawRequest } from '../testing/raw-http.ts';
import { fuzzCases, type FuzzCase, type PathValues } from './cases.ts';

const bundle = loadBundle();
const schemas = new SchemaValidator(bundle, 'all');
const CONCURRENCY = 8;
const BATCH = 60;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(agent: http.Agent, origin: URL, c: FuzzCase): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // An explicit Content-Length: Node sends a DELETE's or GET's body unframed otherwise.
    const headers = c.body === undefined ? c.headers : { ...c.headers, 'content-length': String(Buffer.byteLength(c.body)) };
    const req = http.request(
      { host: origin.hostname, port: origin.port, method: c.method, path: `${API_BASE}${c.path}`, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end(c.body);
  });
}

/** The JSON schema pointer of an answer: the operation's declared response for the status, else the generic error. */
function schemaPointer(c: FuzzCase, status: number): string {
  if (c.op) {
    const at = `#/paths/${escapeToken(c.op.path)}/${c.op.method}/responses/${status}`;
    const node = resolvePointer(bundle, at) as JsonObject | undefined;
    const pointer = typeof node?.$ref === 'string' ? node.$ref : at;
    const schema = `${pointer}/content/application~1json/schema`;
    if (node && resolvePointer(bundle, schema) !== undefined) return schema;
  }
  return `#/components/schemas/${status === 400 ? 'ValidationError' : 'Error'}`;
}

/** Problems with one answer (empty when it is as the contract says). */
function judge(c: FuzzCase, a: Answer): string[] {
  const problems: string[] = [];
  if (a.status >= 500) problems.push(`${a.status}: ${a.body.slice(0, 300)}`);
  const target = normalizeTarget(`${API_BASE}${c.path}`);
  const api = target.ok && target.path.startsWith(`${API_BASE}/`);
  if (api && !(a.headers['x-ratelimit-limit'] && a.headers['x-ratelimit-remaining'] && a.headers['x-ratelimit-reset']))
    problems.push(`${a.status} without X-RateLimit headers`);
  if (a.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(a.body);
    } catch {
      return [...problems, `${a.status} body is not JSON: ${a.body.slice(0, 200)}`];
    }
    const errors = schemas.validate(schemaPointer(c, a.status), body);
    if (errors.length)
      problems.push(`${a.status} ${JSON.stringify(body).slice(0, 200)} breaks ${schemaPointer(c, a.status)}: ${errors.join('; ')}`);
  }
  return problems;
}

/** Framing no HTTP client sends, straight onto the socket. */
function framingCases(host: string): Array<[string, string]> {
  const h = `Host: ${host}`;
  return [
    ['header overflow', `GET ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['bad Content-Length', `POST ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nContent-Length: -5\r\n\r\n`],
    ['two Content-Lengths', `POST ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    ['CL with TE', `POST ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    [
      'bad chunk size',
      `POST ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    ['unknown method', `BREW ${API_BASE}/patients HTTP/1.1\r\n${h}\r\n\r\n`],
    ['asterisk target', `OPTIONS * HTTP/1.1\r\n${h}\r\nConnection: close\r\n\r\n`],
    ['absolute-form to the API', `GET http://${host}${API_BASE}/providers HTTP/1.1\r\n${h}\r\nConnection: close\r\n\r\n`],
    ['dot segments to the API', `GET ${API_BASE}/patients/../providers HTTP/1.1\r\n${h}\r\nConnection: close\r\n\r\n`],
    ['HTTP/0.9', `GET ${API_BASE}/patients\r\n\r\n`],
    ['LF only', `GET ${API_BASE}/patients HTTP/1.1\n${h}\n\n`],
    ['space in target', `GET ${API_BASE}/pat ients HTTP/1.1\r\n${h}\r\n\r\n`],
    ['CONNECT', `CONNECT ${host} HTTP/1.1\r\n${h}\r\n\r\n`],
    ['NUL in a header', `GET ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nX-API-Key: a\u0000b\r\nConnection: close\r\n\r\n`],
    ['obsolete line folding', `GET ${API_BASE}/patients HTTP/1.1\r\n${h}\r\nX-API-Key: a\r\n b\r\nConnection: close\r\n\r\n`],
  ];
}

describe.each<[MockMode, boolean]>([
  ['default', true],
  ['engine-only', false],
])('fuzz from the spec, %s mode (strict=%s)', (mode, strict) => {
  let m: RunningMock;
  let agent: http.Agent;
  const violations: string[] = [];
  beforeAll(async () => {
    m = await startMock({
      port: 0,
      mode,
      strict,
      quiet: true,
      timeScale: 0.001,
      rateLimit: { requests: 1_000_000, seconds: 60 },
      onViolation: (l) => violations.push(l),
    });
    agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  });
  afterAll(async () => {
    agent?.destroy();
    await m?.close();
  });

  const healthy = async () => {
    const r = await fetch(`${m.controlUrl}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(r.status).toBe(200);
  };

  it('answers every generated bad request without a 5xx, inside the contract, and stays up', async () => {
    const org = m.seed.organizations[0]!.id;
    const first = (section: string) =>
      (m.seed[section] as Array<{ id: string; organization_id: string }>).find((r) => r.organization_id === org)!.id;
    const values: PathValues = {
      patientId: first('patients'),
      appointmentId: first('appointments'),
      providerId: first('providers'),
      noteId: first('notes'),
      sessionId: first('sessions'),
      documentId: first('documents'),
    };
    const key = m.seed.keys.find((k) => k.organization_id === org && k.state === 'active' && k.scopes.includes('*'))!.key;
    const cases = fuzzCases(bundle, key, values);
    const origin = new URL(m.url);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let at = 0; at < cases.length; at += BATCH) {
      const batch = cases.slice(at, at + BATCH);
      for (let i = 0; i < batch.length; i += CONCURRENCY)
        await Promise.all(
          batch.slice(i, i + CONCURRENCY).map(async (c) => {
            const a = await send(agent, origin, c).catch((e: Error) => ({ status: 599, headers: {}, body: `no answer: ${e.message}` }));
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            for (const p of judge(c, a)) failures.push(`${c.label}: ${p}`);
          }),
        );
      await healthy();
    }
    const framing = framingCases(origin.host);
    for (const [label, bytes] of framing) {
      const a = await rawRequest(Number(origin.port), bytes).catch((e: Error) => ({
        status: 599,
        headers: {},
        body: `no answer: ${e.message}`,
      }));
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      for (const p of judge({ label, method: 'GET', path: '/patients', headers: {} }, a)) failures.push(`framing ${label}: ${p}`);
    }
    await healthy();
    const tried = cases.length + framing.length;
    console.log(
      `fuzz ${mode}${strict ? ' --strict' : ''}: ${tried} requests (${cases.length} from the spec over ${new Set(cases.map((c) => c.op?.operation.operationId).filter(Boolean)).size} operations, ${framing.length} framing); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    expect(failures).toEqual([]);
    expect(violations).toEqual([]);
    expect(tried).toBeGreaterThan(500);
  }, 60_000);
});
