// One run, one table: req/s and p50/p99 latency at 20 connections for GET list, GET by id and POST patient in each
// mode (Prism static, default, engine-only) beside two ceilings answering with the engine's own bytes (bare node:http,
// and Hono alone: bench/ceiling.ts); a list page at 100k vs 1k patients; RSS with 100k patients; engine-only start to
// first 200. Every server runs in its own process; every load run is preceded by a 1 s warm-up (JIT) that is not
// counted, the same for every server. Source runs use `node --import tsx`; when dist/ is built, start-up and RSS are
// also measured for the built binary (`node dist/mock/cli.js`), which is what `clinical-records-mock` runs and what
// the start-up and memory targets are judged on.
// Usage: npx tsx bench/run.ts [--duration <seconds>]   (no timed tests anywhere else)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { generateSeed } from '../mock/seed/generate.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 5;
const CONNECTIONS = 20;
const tmp = mkdtempSync(join(tmpdir(), 'mock-bench-'));
const LOAD_AT_START = (await import('node:os'))
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');

interface Server {
  url: string;
  proc: ChildProcess;
  startedMs: number;
}

const DIST_CLI = join(ROOT, 'dist/mock/cli.js');

function startProcess(args: string[], ready: RegExp, opts: { built?: boolean } = {}): Promise<Server> {
  const t0 = performance.now();
  const argv = opts.built ? args : ['--import', 'tsx', ...args];
  const proc = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = out.match(ready);
      if (m) clearTimeout(timer), resolve({ url: m[1]!, proc, startedMs: performance.now() - t0 });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', () => (clearTimeout(timer), reject(new Error(`exited: ${out}`))));
  });
}

const startMock = (flags: string[], built = false) =>
  startProcess([built ? DIST_CLI : 'mock/cli.ts', '--port', '0', '--rate-limit', '1000000000/1', ...flags], /API\s+(http:\/\/\S+)/, {
    built,
  });

function stop(s: Server): Promise<void> {
  return new Promise((r) => {
    s.proc.once('exit', () => r());
    s.proc.kill('SIGKILL');
  });
}

async function load(url: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration,
      method: (opts.method ?? 'GET') as 'GET',
      body: opts.body,
      headers: opts.headers,
    });
  await run(1); // warm-up, not counted
  const r = await run(DURATION);
  const ok = r['2xx'] / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok };
}

const POST_BODY = JSON.stringify({ first_name: 'Bench', last_name: 'Mark' });

/** The engine's answer to each benchmarked route: status, headers that matter to a client, body. */
async function captureBodies(key: string, patient: string) {
  const s = await startMock(['--engine-only']);
  try {
    const h = { 'x-api-key': key };
    const take = async (r: Response) => ({ status: r.status, type: r.headers.get('content-type'), body: await r.text() });
    return {
      list: await take(await fetch(`${s.url}/patients`, { headers: h })),
      byId: await take(await fetch(`${s.url}/patients/${patient}`, { headers: h })),
      post: await take(
        await fetch(`${s.url}/patients`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: POST_BODY }),
      ),
    };
  } finally {
    await stop(s);
  }
}

const rows: string[][] = [];
const row = (...cells: Array<string | number>) => rows.push(cells.map(String));
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

async function routes(label: string, s: Server, key: string, ids: { patient: string }) {
  const h = { 'x-api-key': key };
  const list = await load(`${s.url}/patients`, { headers: h });
  const byId = await load(`${s.url}/patients/${ids.patient}`, { headers: h });
  const post = await load(`${s.url}/patients`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: POST_BODY });
  for (const [route, r] of [
    ['GET list', list],
    ['GET by id', byId],
    ['POST patient', post],
  ] as const)
    row(label, route, fmt(r.rps), r.p50, r.p99, `${(r.ok * 100).toFixed(0)}%`);
  return { list, byId, post };
}

async function main() {
  const seed = JSON.parse(readFileSync(join(ROOT, 'mock/seed/default.json'), 'utf8'));
  const key = seed.keys[0].key as string;
  const patient = seed.patients[0].id as string;

  // The machine's ceilings (bench/ceiling.ts): the engine's own answers, captured first, served by bare node:http and
  // by Hono alone, so that the engine-only rows can be read against what HTTP and the framework cost by themselves.
  const bodies = join(tmp, 'bodies.json');
  writeFileSync(bodies, JSON.stringify(await captureBodies(key, patient)));
  const ceilings: Record<string, Awaited<ReturnType<typeof routes>>> = {};
  for (const [label, kind] of [
    ['bare node:http, same bytes', 'bare'],
    ['Hono alone, same bodies', 'hono'],
  ] as const) {
    const s = await startProcess(['bench/ceiling.ts', kind, bodies], /API\s+(http:\/\/\S+)/);
    ceilings[kind] = await routes(label, s, key, { patient });
    await stop(s);
  }
  const bareR = ceilings.bare!;
  const honoR = ceilings.hono!;

  const results: Record<string, Awaited<ReturnType<typeof routes>>> = {};
  for (const [label, flags] of [
    ['Prism static', []],
    ['default (Prism proxy + engine)', []],
    ['engine-only', ['--engine-only']],
  ] as const) {
    const s =
      label === 'Prism static' ? await startProcess(['bench/prism-static.ts'], /API\s+(http:\/\/\S+)/) : await startMock([...flags]);
    results[label] = await routes(label, s, key, { patient: label === 'Prism static' ? '7281928374650192837' : patient });
    await stop(s);
  }

  // Scale: a list page and RSS with 1k and 100k patients (engine-only), from source and, when built, from dist/.
  const builtToo = existsSync(DIST_CLI);
  const scale: Record<string, { page: Awaited<ReturnType<typeof load>>; rssMb: number }> = {};
  for (const n of [1_000, 100_000]) {
    const file = join(tmp, `seed-${n}.json`);
    const generated = await generateSeed({ patients: n });
    const scaleKey = generated.keys[0]!.key; // keys derive from the generator's sequence: not the default seed's
    writeFileSync(file, JSON.stringify(generated));
    for (const built of builtToo ? [false, true] : [false]) {
      const s = await startMock(['--engine-only', '--seed', file], built);
      const page = await load(`${s.url}/patients?page=3`, { headers: { 'x-api-key': scaleKey } });
      const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) / 1024;
      scale[`${n}${built ? ' built' : ''}`] = { page, rssMb: rss };
      await stop(s);
    }
  }

  // Engine-only, default seed: process start to the first 200 (source through tsx, and built).
  const firstOk = async (built: boolean) => {
    const t0 = performance.now();
    const s = await startMock(['--engine-only'], built);
    for (;;) {
      const r = await fetch(`${s.url}/providers`, { headers: { 'x-api-key': key } }).catch(() => undefined);
      if (r?.status === 200) break;
    }
    const ms = performance.now() - t0;
    await stop(s);
    return ms;
  };
  const firstTsx = await firstOk(false);
  const firstBuilt = builtToo ? await firstOk(true) : undefined;
  const first = firstBuilt ?? firstTsx;

  const widths = [32, 14, 10, 9, 9, 6];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join(' | ')} |`;
  const out = [line(['mode', 'route', 'req/s', 'p50 ms', 'p99 ms', '2xx']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const st = results['Prism static']!;
  const df = results['default (Prism proxy + engine)']!;
  const eo = results['engine-only']!;
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const rss = (k: string) => scale[k]!.rssMb.toFixed(0);
  out.push(
    '',
    `| target | measured | met |`,
    `| --- | --- | --- |`,
    ...(['list', 'byId', 'post'] as const).map(
      (k) => `| default >= 0.9x Prism static (${k}) | ${ratio(df[k].rps, st[k].rps)}x | ${df[k].rps >= 0.9 * st[k].rps ? 'yes' : 'NO'} |`,
    ),
    ...(['list', 'byId', 'post'] as const).map(
      (k) =>
        `| engine-only >= 10x Prism static, p99 <= 10 ms (${k}; ceilings: bare node:http ${ratio(bareR[k].rps, st[k].rps)}x, Hono alone ${ratio(honoR[k].rps, st[k].rps)}x) | ${ratio(eo[k].rps, st[k].rps)}x, p99 ${eo[k].p99} ms | ${eo[k].rps >= 10 * st[k].rps && eo[k].p99 <= 10 ? 'yes' : 'NO'} |`,
    ),
    `| list page at 100k within 1.5x of 1k (p50 ${scale['100000']!.page.p50} vs ${scale['1000']!.page.p50} ms; req/s ${fmt(scale['100000']!.page.rps)} vs ${fmt(scale['1000']!.page.rps)}; 2xx ${pct(scale['100000']!.page.ok)}) | ${ratio(scale['1000']!.page.rps, scale['100000']!.page.rps)}x slower | ${scale['100000']!.page.rps * 1.5 >= scale['1000']!.page.rps && scale['100000']!.page.ok === 1 ? 'yes' : 'NO'} |`,
    `| RSS at 100k patients <= 200 MB (${builtToo ? 'built' : 'tsx'}) | ${rss(builtToo ? '100000 built' : '100000')} MB (1k: ${rss(builtToo ? '1000 built' : '1000')} MB${builtToo ? `; through tsx: ${rss('100000')} MB, 1k ${rss('1000')} MB` : ''}) | ${scale[builtToo ? '100000 built' : '100000']!.rssMb <= 200 ? 'yes' : 'NO'} |`,
    `| engine-only start to first 200 < 1.5 s (${builtToo ? 'built' : 'tsx'}) | ${(first / 1000).toFixed(2)} s${firstBuilt !== undefined ? ` (through tsx: ${(firstTsx / 1000).toFixed(2)} s)` : ''} | ${first < 1500 ? 'yes' : 'NO'} |`,
    '',
    `${CONNECTIONS} connections, ${DURATION} s per row after a 1 s warm-up, autocannon in the bench process; load average at start ${LOAD_AT_START}.`,
  );
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
