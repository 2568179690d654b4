// The project's Dredd hooks: every transaction gets the key, its ids and body (provoke.ts), or is skipped with its
// reason; what a transaction creates is deleted at the end; a charset parameter on the declared media type is
// accepted; nothing a reporter prints carries a key, a 10 MB body or a server's raw control characters; and once
// the server has stopped answering (the Guard says so) no further transaction is sent.
import { apiKeyHeader } from '../generated/spec-values.ts';
import type { Contract } from '../spec/runtime/contract.ts';
import type { Guard } from './guard.ts';
import { MockAccess } from './mock-access.ts';
import { Provoker, Skip } from './provoke.ts';
import { ReportBudget, shapeForReport, type ShownAnswer } from './report-view.ts';
import { RunResources } from './resources.ts';

/** The part of a Dredd 14 transaction the hooks read and write. */
export interface Transaction {
  name: string;
  origin: { resourceName: string };
  request: { method: string; uri: string; headers: Record<string, string>; body: string | Buffer };
  expected: { statusCode: string; headers?: Record<string, string> };
  real?: { statusCode: number; headers?: Record<string, string>; body?: string };
  fullPath: string;
  skip?: boolean;
  fail?: string | boolean;
  test?: { message?: string };
  results?: ShownAnswer['results'];
}

type Done = () => void;
/** Dredd's hooks object (the `hooks` module a hook file requires). Hooks taking `done` are awaited. */
export interface DreddHooks {
  beforeAll(fn: (ts: Transaction[], done: Done) => void): void;
  beforeEach(fn: (t: Transaction, done: Done) => void): void;
  beforeEachValidation(fn: (t: Transaction) => void): void;
  afterEach(fn: (t: Transaction, done: Done) => void): void;
  afterAll(fn: (ts: Transaction[], done: Done) => void): void;
  log(message: string): void;
}

export interface HookOptions {
  url: string;
  key: string;
  mock: boolean;
  contract: Contract;
  /** Every request the hooks and Dredd send goes through it; it also knows the keys to redact. */
  guard: Guard;
  runId?: string;
}

/** What the hooks saw, for the summary the run prints. */
export interface HookRecord {
  skipped: Array<{ name: string; reason: string }>;
  cleanup?: { removed: number; leftovers: string[] };
  /** Transactions not sent because the run was interrupted. */
  notRun: number;
  /** Ctrl-C: the transactions left are not sent; Dredd goes on to afterAll, which cleans up. */
  interrupt(): void;
  interrupted: boolean;
  /** Why the transactions left were not sent: the server stopped answering. */
  stopped?: string;
}

const KEY_PLACEHOLDER = '$CLINICAL_RECORDS_KEY';
const SCOPED_KEY_PLACEHOLDER = '$CLINICAL_RECORDS_SCOPED_KEY';
/** Request bodies longer than this are shown by their size only (the 413 transactions send 10 MB). */
const SHOWN_BODY = 2048;

const header = (headers: Record<string, string> | undefined, name: string) =>
  Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());

/** Dredd compares Content-Type as a string: `application/json; charset=utf-8` is the declared `application/json`. */
export function acceptCharset(t: Transaction): void {
  const expected = header(t.expected.headers, 'content-type');
  const real = header(t.real?.headers, 'content-type')?.[1];
  if (!expected || !real || real === expected[1]) return;
  const [type, ...parameters] = real.split(';').map((s) => s.trim());
  if (type!.toLowerCase() === expected[1].toLowerCase() && parameters.length && parameters.every((p) => /^charset=[^;]+$/i.test(p)))
    t.expected.headers![expected[0]] = real;
}

export function registerHooks(hooks: DreddHooks, opts: HookOptions): HookRecord {
  const { guard } = opts;
  guard.secrets.add(opts.key, KEY_PLACEHOLDER);
  const res = new RunResources(opts.url, opts.key, opts.contract, guard, opts.runId);
  const mock = opts.mock ? new MockAccess(opts.url, opts.key, guard, res.prefix.replace(/-$/, '')) : undefined;
  const budget = new ReportBudget();
  const record: HookRecord = {
    skipped: [],
    notRun: 0,
    interrupted: false,
    interrupt: () => void (record.interrupted = true),
  };
  const provoker = new Provoker(res, mock);
  const basePath = new URL(opts.url).pathname.replace(/\/$/, '');
  const reasons = new Map<Transaction, string>();
  const armed = new Set<Transaction>();

  hooks.beforeEach((t, done) => {
    record.stopped ??= guard.stopped();
    if (record.interrupted || record.stopped) {
      t.skip = true;
      record.notRun++;
      return done();
    }
    void prepare(t).then(done, (err: unknown) => {
      if (err instanceof Skip) {
        t.skip = true;
        reasons.set(t, err.message);
        record.skipped.push({ name: t.name, reason: err.message });
      } else t.fail = (err as Error).message;
      done();
    });
  });

  async function prepare(t: Transaction): Promise<void> {
    const op = opts.contract.operations.find((o) => o.template === t.origin.resourceName && o.method === t.request.method.toUpperCase());
    if (!op) throw new Error(`no operation ${t.request.method} ${t.origin.resourceName} in the spec`);
    const expectedType = header(t.expected.headers, 'content-type')?.[1] ?? '';
    const shaped = await provoker.shape({
      op,
      status: Number(t.expected.statusCode),
      mediaType: expectedType,
      query: new URLSearchParams(t.request.uri.split('?')[1] ?? ''),
    });
    t.request.uri = shaped.uri;
    t.fullPath = basePath + shaped.uri;
    // Dredd sends an optional header parameter without an example as an empty header (Idempotency-Key: ``),
    // which is a request the description does not make; such headers are dropped.
    const headers = Object.fromEntries(
      Object.entries(t.request.headers).filter(
        ([k, v]) => v !== '' && !['content-type', apiKeyHeader.toLowerCase()].includes(k.toLowerCase()),
      ),
    );
    if (shaped.key !== null) headers[apiKeyHeader] = shaped.key ?? opts.key;
    if (shaped.key) guard.secrets.add(shaped.key, SCOPED_KEY_PLACEHOLDER);
    t.request.body = shaped.body?.data ?? '';
    if (shaped.body) headers['Content-Type'] = shaped.body.contentType;
    t.request.headers = headers;
    if (shaped.arm && mock) {
      // The fault is armed in the run's scope: only a request carrying it meets the fault.
      const [name, value] = mock.scopeHeader;
      headers[name] = value;
      await shaped.arm();
      armed.add(t);
    }
  }

  hooks.beforeEachValidation(acceptCharset);

  hooks.afterEach((t, done) => {
    // Only a POST's answer can name something the run created (a body read again costs its size in memory).
    if (t.real) {
      let json: unknown;
      try {
        json = t.request.method === 'POST' && t.real.body ? JSON.parse(t.real.body) : undefined;
      } catch {
        /* not JSON */
      }
      res.observe(t.request.method, t.request.uri, { status: t.real.statusCode, json, text: t.real.body ?? '' });
    }
    // Reporters print the transaction after this hook: keys become placeholders, huge bodies their size, the
    // answer is made safe to show and bounded.
    for (const [name, value] of Object.entries(t.request.headers)) t.request.headers[name] = guard.secrets.redact(value);
    shapeForReport(t, budget);
    const size = Buffer.byteLength(t.request.body ?? '');
    if (size > SHOWN_BODY || Buffer.isBuffer(t.request.body)) t.request.body = `<${size} bytes, not shown>`;
    const reason = reasons.get(t);
    if (reason && t.test) t.test.message = `skipped: ${reason}`;
    // A fault the request did not meet (it failed before reaching it) must not meet the next transaction.
    if (armed.delete(t) && mock)
      void mock.clearFaults().then(
        () => done(),
        () => done(),
      );
    else done();
  });

  hooks.afterAll((_ts, done) => {
    void (async () => {
      if (mock) await mock.clearFaults().catch(() => undefined);
      record.cleanup = await res
        .cleanup()
        .catch((err: unknown) => ({ removed: 0, leftovers: [`cleanup stopped: ${(err as Error).message}`] }));
    })().then(done);
  });

  return record;
}
