// The fault path matcher on the worst case a hostile probe found: `/**a**a**a**a` against a run of `a` that does not
// end in one. The former matcher (the glob compiled to a backtracking RegExp, `**` as `.*`) beside the automaton that
// replaced it (mock/platform/glob.ts); the former is run on short paths only, its time growing with the fourth power
// of the length (a 400-character GET took 13.8 s, an 800-character one about 2 minutes).
// (The probe's path now ends in a character its pattern cannot end with: refused by the literal ends, without a step.)
// Then the mock itself with the most faults it arms (MAX_ARMED_FAULTS, each about the longest path MAX_FAULT_PATH allows,
// all aimed at every method and matching nothing), engine-only in a process of its own: the time of one request whose
// path is the longest a glob is tried on (MAX_GLOB_MATCHED_PATH), with the probe's patterns and with 100 distinct ones
// that each run whole (CASES), and of one as long as a request line can be (Node's 16 KB header limit), against the
// target of 10 ms (issue 42).
// Usage: npx tsx bench/fault-glob.ts
import { loadavg } from 'node:os';
import { MAX_ARMED_FAULTS, MAX_FAULT_PATH, MAX_GLOB_MATCHED_PATH } from '../mock/platform/faults.ts';
import { compileGlob, globMatches } from '../mock/platform/glob.ts';
import { cpuNs, startProcess, stop } from './load.ts';

const PATTERN = '/**a**a**a**a';

/** The matcher before issue 32 (mock/platform/faults.ts). */
function backtracking(pattern: string): RegExp {
  const literal = (s: string) => s.replace(/[.+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(
    `^${pattern
      .split('**')
      .map((part) => part.split('*').map(literal).join('[^/]+'))
      .join('.*')}$`,
  );
}

/** Milliseconds per match, over enough runs to take about 200 ms. */
function time(match: (path: string) => boolean, path: string): number {
  let runs = 0;
  const t0 = performance.now();
  do {
    match(path);
    runs++;
  } while (performance.now() - t0 < 200);
  return (performance.now() - t0) / runs;
}

const glob = compileGlob(PATTERN);
const regex = backtracking(PATTERN);
const worst = (n: number) => `/${'a'.repeat(n)}b`;
console.log(`pattern ${PATTERN}, path /a…ab`);
console.log('characters | backtracking RegExp | automaton');
for (const n of [25, 50, 100, 200, 400, 800, 100_000]) {
  const old = n <= 200 ? `${time((p) => regex.test(p), worst(n)).toFixed(3)} ms` : '(not run)';
  console.log(`${String(n).padStart(10)} | ${old.padStart(19)} | ${time((p) => globMatches(glob, p), worst(n)).toFixed(4)} ms`);
}

/**
 * Milliseconds of `n` requests one after another: the median and the slowest as the client waited, and the server's
 * CPU time a request (all its threads, /proc): on a shared host the wait includes other processes' turns.
 */
async function timeRequests(n: number, send: () => Promise<Response>): Promise<{ p50: number; max: number; cpu: number; status: number }> {
  const times: number[] = [];
  let status = 0;
  const cpu0 = cpuNs(server.proc.pid!);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await send();
    await r.arrayBuffer();
    times.push(performance.now() - t0);
    status = r.status;
  }
  const cpu = (cpuNs(server.proc.pid!) - cpu0) / 1e6 / n;
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)]!, max: times[n - 1]!, cpu, status };
}

/**
 * The armed patterns of each case, MAX_ARMED_FAULTS of them, and the path they are tried on (MAX_GLOB_MATCHED_PATH
 * characters under the API base). The probe's: one pattern armed 100 times, `/` then `**a` up to MAX_FAULT_PATH, on `a`s
 * that end in `b`. Distinct: 100 patterns, no two alike (one `**a` made `*a`, ending `/*` or `/**`; or `/**`, a run of
 * `a` with a `*` at a different place in each, then `/*`), on `a`s alone: every literal end fits the path and every position stays alive to the end, so each is run
 * whole and fails.
 */
const ALL_THE_WAY = MAX_GLOB_MATCHED_PATH - 12;
const CASES = [
  {
    name: "the probe's pattern",
    pattern: () => `/${'**a'.repeat(Math.floor((MAX_FAULT_PATH - 1) / 3))}`,
    path: `/${'a'.repeat(ALL_THE_WAY - 1)}b`,
  },
  {
    name: '100 distinct patterns of `**`',
    pattern: (i: number) => `/${Array.from({ length: 84 }, (_, k) => (k === i % 84 ? '*a' : '**a')).join('')}${i < 84 ? '/*' : '/**'}`,
    path: `/${'a'.repeat(ALL_THE_WAY)}`,
  },
  {
    // Literals kept alive by the `**` in front: about as many positions as a pattern of MAX_FAULT_PATH characters has.
    name: '100 distinct patterns of literals',
    pattern: (i: number) => `/**${'a'.repeat(1 + i)}*${'a'.repeat(248 - i)}/*`,
    path: `/${'a'.repeat(ALL_THE_WAY)}`,
  },
];

const server = await startProcess(['mock/cli.ts', '--engine-only', '--port', '0'], /API\s+(http:\/\/\S+)/);
try {
  const control = server.url.replace(/\/ext-api\/v1$/, '/__mock');
  const key = ((await (await fetch(`${control}/keys`)).json()) as { data: Array<{ key: string }> }).data[0]!.key;
  const headers = { 'x-api-key': key };
  // Each case's requests come after 5 not counted, so that the JIT's first compilations are not read as a request's.
  const measure = async (path: string) => {
    await timeRequests(5, () => fetch(`${server.url}${path}`, { headers }));
    return timeRequests(20, () => fetch(`${server.url}${path}`, { headers }));
  };
  const rows: string[] = [];
  const row = (name: string, armedNow: string | number, t: Awaited<ReturnType<typeof timeRequests>>) =>
    rows.push(`${name} | ${armedNow} | ${t.status} | ${t.p50.toFixed(2)} | ${t.max.toFixed(2)} | ${t.cpu.toFixed(2)}`);
  const worst: number[] = [];
  row(`GET of a ${MAX_GLOB_MATCHED_PATH}-character path`, 'none', await measure(`/${'a'.repeat(ALL_THE_WAY)}`));
  const kinds = ['latency', 'http', 'drop', 'reset'];
  for (const c of CASES) {
    await fetch(`${control}/faults`, { method: 'DELETE' });
    for (let i = 0; i < MAX_ARMED_FAULTS; i++) {
      const kind = kinds[i % kinds.length]!;
      const path = c.pattern(i);
      if (path.length > MAX_FAULT_PATH) throw new Error(`pattern ${i} of ${c.name} is ${path.length} characters`);
      const extra = kind === 'http' ? { status: 503 } : kind === 'latency' ? { ms: 0 } : {};
      const r = await fetch(`${control}/faults`, {
        method: 'POST',
        body: JSON.stringify({ kind, path, method: '*', count: null, ...extra }),
      });
      if (r.status !== 201) throw new Error(`arming fault ${i + 1}: ${r.status} ${await r.text()}`);
    }
    const t = await measure(c.path);
    worst.push(t.cpu);
    row(`GET of a ${MAX_GLOB_MATCHED_PATH}-character path, ${c.name}`, MAX_ARMED_FAULTS, t);
  }
  const refused = await fetch(`${control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'drop' }) });
  row(`GET of a 16000-character path (no glob tried)`, MAX_ARMED_FAULTS, await measure(`/${'a'.repeat(16_000 - 13)}b`));
  row('GET /providers', MAX_ARMED_FAULTS, await measure('/providers'));
  console.log(`\nthe mock (engine-only, own process) with ${MAX_ARMED_FAULTS} faults armed (one more: ${refused.status})`);
  console.log(
    'request | faults armed | status | p50 ms | max ms | server CPU ms a request (20 requests one at a time, after 5 not counted)',
  );
  for (const r of rows) console.log(r);
  const cpu = Math.max(...worst);
  console.log(
    `target: one request <= 10 ms of the server's time with the maximum armed: ${cpu <= 10 ? 'met' : 'NOT met'} (worst ${cpu.toFixed(2)} ms CPU a request; load average ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  await stop(server);
}
