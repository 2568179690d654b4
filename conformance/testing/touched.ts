// Which checks a single defect can reach, read from a clean run's traffic (isolation.test.ts): every exchange of one
// whole run against the unbroken mock, attributed to the check it was sent for (and to the fixture it built, when other
// checks share that fixture), is put through a fresh instance of a variant's transformers offline, in the run's order.
// A check none of whose exchanges the variant changes, nor any fixture it reads, sends and reads what it did in the
// clean run, so it passes as it did there; only the others need a live run with the defect. A changed answer to the
// run's cleanup reaches the checks whose resources it deletes (cleanupReach). Where traffic cannot tell, the whole run:
// another changed exchange of the run's own, a changed write request (the mock's state then differs for any check
// that reads it), or a change that needs other checks' traffic (a transformer's kept state).
// Test-only.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from '../../judge/define.ts';
import type { CheckDef, CheckResult } from '../run/model.ts';
import type { Fixtures } from '../run/fixtures.ts';
import { jsonOf, type ProxyRequest, type ProxyResponse, type Variant } from './broken-proxy.ts';

interface Origin {
  check: string;
  /** The memoized fixture being built (its answer reaches every check that reads it). */
  fixture?: string;
}

/** One exchange of the clean run: who sent it, and what went each way. */
interface Traced {
  origin?: Origin;
  /** Sent by the run's cleanup, after every check and response check has its result. */
  cleanup?: boolean;
  req: ProxyRequest;
  res: ProxyResponse;
}

export interface Trace {
  exchanges: Traced[];
  /** Memoized fixture → the checks that read it. */
  readers: Map<string, Set<string>>;
}

/** Fixture methods whose answer the run memoizes, by the key shared among their readers. */
const MEMOIZED: Record<string, (args: unknown[]) => string> = {
  providers: () => 'providers',
  notes: () => 'notes',
  firstNote: () => 'notes',
  patient: () => 'patient',
  shared: ([name]) => `shared:${String(name)}`,
};

/** The checks as they are, each running under its name (so its exchanges and fixtures are attributed), and a trace. */
export function tracing(checks: CheckDef[]): { checks: CheckDef[]; trace: Trace } {
  const als = new AsyncLocalStorage<Origin>();
  const trace: Trace = { exchanges: [], readers: new Map() };
  const hooked = new WeakSet<object>();
  const record = (ex: Exchange) => {
    if (new URL(ex.request.url).pathname.includes('/__mock')) return;
    trace.exchanges.push({ origin: als.getStore(), cleanup: ex.check === 'cleanup', ...asProxied(ex) });
  };
  const watch = (fixtures: Fixtures, check: string): Fixtures =>
    new Proxy(fixtures, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        const key = MEMOIZED[String(prop)];
        if (typeof value !== 'function') return value;
        if (!key) return value.bind(target);
        return (...args: unknown[]) => {
          const fixture = key(args);
          if (!trace.readers.has(fixture)) trace.readers.set(fixture, new Set());
          trace.readers.get(fixture)!.add(check);
          return als.run({ check, fixture }, () => value.apply(target, args));
        };
      },
    });
  return {
    trace,
    checks: checks.map((c) => ({
      ...c,
      run: (ctx) => {
        // The run's one Http: every exchange from the first check on (the cleanup's too) passes this listener.
        if (!hooked.has(ctx.http)) {
          hooked.add(ctx.http);
          ctx.http.onExchange(record);
        }
        return als.run({ check: c.name }, () => c.run({ ...ctx, fixtures: watch(ctx.fixtures, c.name) }));
      },
    })),
  };
}

/** An exchange as the broken proxy would have seen it (path under the base, lower-case headers, body bytes). */
function asProxied(ex: Exchange): { req: ProxyRequest; res: ProxyResponse } {
  const u = new URL(ex.request.url);
  const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    req: {
      method: ex.request.method,
      url: u.pathname + u.search,
      headers: lower(ex.request.headers),
      body: Buffer.from(ex.request.bodyText ?? ''),
    },
    res: { status: ex.response.status, headers: lower(ex.response.headers), body: Buffer.from(ex.response.text) },
  };
}

const sameReq = (a: ProxyRequest, b: ProxyRequest) =>
  a.method === b.method && a.url === b.url && JSON.stringify(a.headers) === JSON.stringify(b.headers) && a.body.equals(b.body);
const sameRes = (a: ProxyResponse, b: ProxyResponse) =>
  a.status === b.status && JSON.stringify(a.headers) === JSON.stringify(b.headers) && a.body.equals(b.body);
const copyReq = (r: ProxyRequest): ProxyRequest => ({ ...r, headers: { ...r.headers }, body: Buffer.from(r.body) });
const copyRes = (r: ProxyResponse): ProxyResponse => ({ ...r, headers: { ...r.headers }, body: Buffer.from(r.body) });

export type Reach = { whole: string } | { checks: Set<string> };

/** The indices of `exchanges` a fresh variant changes, put through it in order; and whether a write request changed. */
async function changedBy(variant: Variant, exchanges: Traced[]): Promise<{ changed: Set<number>; write?: string }> {
  const changed = new Set<number>();
  let write: string | undefined;
  for (const [i, { req, res }] of exchanges.entries()) {
    const sent = copyReq(req);
    variant.request?.(sent);
    const answered = copyRes(res);
    await variant.response?.(answered, sent);
    const reqChanged = !sameReq(sent, req);
    if (!reqChanged && sameRes(answered, res)) continue;
    changed.add(i);
    if (reqChanged && req.method !== 'GET' && req.method !== 'HEAD') write ??= `${req.method} ${req.url.split('?')[0]}`;
  }
  return { changed, write };
}

/**
 * The checks a variant can reach in `trace`, or why only the whole run tells: a changed exchange of the run's own, a
 * changed write request, a variant that drops or delays, or one whose change to a check's traffic depends on other
 * checks' traffic (its transformers keep state: an upload another check stored, say). `fresh()` makes a new instance.
 */
export async function reachOf(fresh: () => Variant, trace: Trace): Promise<Reach> {
  const probe = fresh();
  if (probe.drop || probe.latencyMs) return { whole: 'it drops or delays answers' };
  const { changed, write } = await changedBy(probe, trace.exchanges);
  if (write) return { whole: `it changes the write ${write}, whose effect any check may read` };
  const checks = new Set<string>();
  const touched = new Set<string>();
  const cleanup = await cleanupReach(fresh, trace, changed);
  if ('whole' in cleanup) return cleanup;
  for (const c of cleanup.checks) checks.add(c);
  for (const i of changed) {
    const { origin, req, cleanup: ofCleanup } = trace.exchanges[i]!;
    if (ofCleanup) continue;
    if (!origin) return { whole: `it changes ${req.method} ${req.url.split('?')[0]}, which the run sends for none of its checks` };
    touched.add(origin.check);
    checks.add(origin.check);
    for (const r of origin.fixture ? (trace.readers.get(origin.fixture) ?? []) : []) checks.add(r);
  }
  // Each touched check's traffic alone (with the fixtures it reads) must be changed as in the whole run.
  for (const check of touched) {
    const reads = new Set([...trace.readers].filter(([, rs]) => rs.has(check)).map(([f]) => f));
    const own = trace.exchanges
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.origin && (e.origin.fixture ? reads.has(e.origin.fixture) : e.origin.check === check));
    const alone = await changedBy(
      fresh(),
      own.map(({ e }) => e),
    );
    const whole = own.flatMap(({ i }, j) => (changed.has(i) ? [j] : []));
    if (whole.length !== alone.changed.size || whole.some((j) => !alone.changed.has(j)))
      return { whole: `what it changes in ${check}'s traffic depends on other checks' traffic` };
  }
  return { checks };
}

/**
 * The checks whose cleanup the variant changes. The run deletes what its checks left at the end, after every check and
 * response check has its result, so a changed answer there reaches only the count of what was left behind. A narrowed
 * run that keeps the check that created the resource (and, for a fixture, the checks reading it) has its own cleanup
 * send that DELETE and meet the same answer; the other checks' resources are removed as in the clean run. Only the
 * whole run tells where the variant changes a cleanup request, or changes an answer differently when the rest of the
 * run's traffic has not gone before it (a transformer's kept state), or no create in the trace explains the DELETE.
 */
async function cleanupReach(fresh: () => Variant, trace: Trace, changed: Set<number>): Promise<Reach> {
  const checks = new Set<string>();
  for (const [i, e] of trace.exchanges.entries()) {
    if (!e.cleanup) continue;
    const where = `${e.req.method} ${e.req.url.split('?')[0]}`;
    if ((await changedBy(fresh(), [e])).changed.size !== (changed.has(i) ? 1 : 0))
      return { whole: `what it changes in the cleanup's ${where} depends on the run's other traffic` };
    if (!changed.has(i)) continue;
    const sent = copyReq(e.req);
    fresh().request?.(sent);
    const creator = sameReq(sent, e.req) ? creatorOf(trace, e.req) : undefined;
    if (!creator) return { whole: `it changes the cleanup's ${where}, which no check's create in the trace explains` };
    checks.add(creator.check);
    for (const r of creator.fixture ? (trace.readers.get(creator.fixture) ?? []) : []) checks.add(r);
  }
  return { checks };
}

/** Who created what a cleanup DELETE removes: the check (and fixture) whose 2xx POST answered the id the path ends with. */
function creatorOf(trace: Trace, del: ProxyRequest): Origin | undefined {
  const path = del.url.split('?')[0];
  return trace.exchanges.find(({ origin, req, res }) => {
    const id = origin && req.method === 'POST' && res.status >= 200 && res.status < 300 ? jsonOf(res.body)?.data?.id : undefined;
    return id !== undefined && `${req.url.split('?')[0]!.replace(/\/$/, '')}/${encodeURIComponent(String(id))}` === path;
  })?.origin;
}

/** The clean run's checks that did not pass or skip: a narrowed run keeps them, since their outcome is not known. */
export const unsettled = (results: CheckResult[]) =>
  results.filter((r) => r.outcome !== 'passed' && r.outcome !== 'skipped').map((r) => r.name);
