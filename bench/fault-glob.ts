// The fault path matcher on the worst case a hostile probe found: `/**a**a**a**a` against a run of `a` that does not
// end in one. The former matcher (the glob compiled to a backtracking RegExp, `**` as `.*`) beside the automaton that
// replaced it (mock/platform/glob.ts); the former is run on short paths only, its time growing with the fourth power
// of the length (a 400-character GET took 13.8 s, an 800-character one about 2 minutes).
// Then the mock itself with the most faults it arms (MAX_ARMED_FAULTS, each the longest path MAX_FAULT_PATH allows, all
// aimed at every method and matching nothing), engine-only in a process of its own: the time of one request whose path
// is the longest a glob is tried on (MAX_GLOB_MATCHED_PATH), and of one as long as a request line can be (Node's 16 KB
// header limit), against the target of 10 ms (issue 42).
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

const server = await startProcess(['mock/cli.ts', '--engine-only', '--port', '0'], /API\s+(http:\/\/\S+)/);
try {
  const control = server.url.replace(/\/ext-api\/v1$/, '/__mock');
  const key = ((await (await fetch(`${control}/keys`)).json()) as { data: Array<{ key: string }> }).data[0]!.key;
  const headers = { 'x-api-key': key };
  // Paths of `a`s that end in `b`: every armed pattern keeps all its positions alive to the end, then fails.
  const paths = [MAX_GLOB_MATCHED_PATH, 16_000].map((n) => `/${'a'.repeat(n - 13)}b`);
  const before: Array<Awaited<ReturnType<typeof timeRequests>>> = [];
  for (const p of paths) before.push(await timeRequests(20, () => fetch(`${server.url}${p}`, { headers })));
  // The longest pattern of the probe's shape: `/` then `**a` repeated up to MAX_FAULT_PATH characters.
  const worstPattern = `/${'**a'.repeat(Math.floor((MAX_FAULT_PATH - 1) / 3))}`;
  const kinds = ['latency', 'http', 'drop', 'reset'];
  for (let i = 0; i < MAX_ARMED_FAULTS; i++) {
    const kind = kinds[i % kinds.length]!;
    const body = {
      kind,
      path: worstPattern,
      method: '*',
      count: null,
      ...(kind === 'http' ? { status: 503 } : kind === 'latency' ? { ms: 0 } : {}),
    };
    const r = await fetch(`${control}/faults`, { method: 'POST', body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`arming fault ${i + 1}: ${r.status} ${await r.text()}`);
  }
  const refused = await fetch(`${control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'drop' }) });
  const armed: Array<Awaited<ReturnType<typeof timeRequests>>> = [];
  for (const p of paths) armed.push(await timeRequests(20, () => fetch(`${server.url}${p}`, { headers })));
  const ordinary = await timeRequests(20, () => fetch(`${server.url}/providers`, { headers }));
  console.log(
    `\nthe mock (engine-only, own process) with ${MAX_ARMED_FAULTS} faults armed, each ${worstPattern.length} characters (one more: ${refused.status})`,
  );
  console.log('request | faults armed | status | p50 ms | max ms | server CPU ms a request (20 requests, one at a time)');
  paths.forEach((p, i) => {
    const name = `GET of a ${p.length + 11}-character path`;
    for (const [armedNow, t] of [['none', before[i]!] as const, [MAX_ARMED_FAULTS, armed[i]!] as const])
      console.log(`${name} | ${armedNow} | ${t.status} | ${t.p50.toFixed(2)} | ${t.max.toFixed(2)} | ${t.cpu.toFixed(2)}`);
  });
  const o = ordinary;
  console.log(`GET /providers | ${MAX_ARMED_FAULTS} | ${o.status} | ${o.p50.toFixed(2)} | ${o.max.toFixed(2)} | ${o.cpu.toFixed(2)}`);
  const worst = Math.max(...armed.map((a) => a.cpu));
  const verdict = worst <= 10 ? 'met' : 'NOT met';
  console.log(
    `target: one request <= 10 ms of the server's time with the maximum armed: ${verdict} (worst ${worst.toFixed(2)} ms CPU a request; load average ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  await stop(server);
}
