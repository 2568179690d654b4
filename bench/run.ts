// One run, one table: req/s and p50/p99 latency at 20 connections for GET list, GET by id and POST patient in each
// mode (Prism static, default, engine-only) beside a bare node:http server; a list page at 100k vs 1k patients;
// RSS with 100k patients; engine-only start to first 200. Every server runs in its own process.
// Usage: npx tsx bench/run.ts [--duration <seconds>]   (no timed tests anywhere else)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { generateSeed } from '../mock/seed/generate.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 5;
const CONNECTIONS = 20;
const tmp = mkdtempSync(join(tmpdir(), 'mock-bench-'));

interface Server {
  url: string;
  proc: ChildProcess;
  startedMs: number;
}

function startProcess(args: string[], ready: RegExp): Promise<Server> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = out.match(ready);
      if (m) (clearTimeout(timer), resolve({ url: m[1]!, proc, startedMs: performance.now() - t0 }));
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', () => (clearTimeout(timer), reject(new Error(`exited: ${out}`))));
  });
}

const startMock = (flags: string[]) =>
  startProcess(['mock/cli.ts', '--port', '0', ...(flags.includes('--static') ? [] : ['--rate-limit', '1000000000/1']), ...flags], /API\s+(http:\/\/\S+)/);

function stop(s: Server): Promise<void> {
  return new Promise((r) => {
    s.proc.once('exit', () => r());
    s.proc.kill('SIGKILL');
  });
}

async function load(url: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, method: (opts.method ?? 'GET') as 'GET', body: opts.body, headers: opts.headers });
  const ok = r['2xx'] / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok };
}

const rows: string[][] = [];
const row = (...cells: Array<string | number>) => rows.push(cells.map(String));
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

async function routes(label: string, s: Server, key: string, ids: { patient: string }) {
  const h = { 'x-api-key': key };
  const list = await load(`${s.url}/patients`, { headers: h });
  const byId = await load(`${s.url}/patients/${ids.patient}`, { headers: h });
  const post = await load(`${s.url}/patients`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify({ first_name: 'Bench', last_name: 'Mark' }) });
  for (const [route, r] of [['GET list', list], ['GET by id', byId], ['POST patient', post]] as const)
    row(label, route, fmt(r.rps), r.p50, r.p99, `${(r.ok * 100).toFixed(0)}%`);
  return { list, byId, post };
}

async function main() {
  const seed = JSON.parse(readFileSync(join(ROOT, 'mock/seed/default.json'), 'utf8'));
  const key = seed.keys[0].key as string;
  const patient = seed.patients[0].id as string;

  // A bare node:http server answering a fixed JSON body: the machine's ceiling.
  const bareFile = join(tmp, 'bare.mjs');
  writeFileSync(bareFile, `import http from 'node:http';const body=JSON.stringify({data:[{id:'1',name:'x'}],meta:{page:1,limit:20,total_pages:1}});const s=http.createServer((q,r)=>{q.resume();q.on('end',()=>{r.writeHead(200,{'content-type':'application/json'});r.end(body)})});s.listen(0,'127.0.0.1',()=>console.log('API http://127.0.0.1:'+s.address().port+'/ext-api/v1'));`);
  const bare = await startProcess([bareFile], /API\s+(http:\/\/\S+)/);
  const bareR = await routes('bare node:http', bare, key, { patient });
  await stop(bare);

  const results: Record<string, Awaited<ReturnType<typeof routes>>> = {};
  for (const [label, flags] of [
    ['Prism static', ['--static']],
    ['default (Prism proxy + engine)', []],
    ['engine-only', ['--engine-only']],
  ] as const) {
    const s = await startMock([...flags]);
    results[label] = await routes(label, s, key, { patient: label === 'Prism static' ? '7281928374650192837' : patient });
    await stop(s);
  }

  // Scale: a list page and RSS with 1k and 100k patients (engine-only).
  const scale: Record<number, { page: Awaited<ReturnType<typeof load>>; rssMb: number; startMs: number }> = {};
  for (const n of [1_000, 100_000]) {
    const file = join(tmp, `seed-${n}.json`);
    writeFileSync(file, JSON.stringify(await generateSeed({ patients: n })));
    const s = await startMock(['--engine-only', '--seed', file]);
    const page = await load(`${s.url}/patients?page=3`, { headers: { 'x-api-key': key } });
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) / 1024;
    scale[n] = { page, rssMb: rss, startMs: s.startedMs };
    await stop(s);
  }

  // Engine-only, default seed: process start to the first 200.
  const t0 = performance.now();
  const s = await startMock(['--engine-only']);
  let first = 0;
  for (;;) {
    const r = await fetch(`${s.url}/providers`, { headers: { 'x-api-key': key } }).catch(() => undefined);
    if (r?.status === 200) {
      first = performance.now() - t0;
      break;
    }
  }
  await stop(s);

  const widths = [32, 14, 10, 9, 9, 6];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join(' | ')} |`;
  const out = [line(['mode', 'route', 'req/s', 'p50 ms', 'p99 ms', '2xx']), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  const st = results['Prism static']!;
  const df = results['default (Prism proxy + engine)']!;
  const eo = results['engine-only']!;
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  out.push(
    '',
    `| target | measured | met |`,
    `| --- | --- | --- |`,
    ...(['list', 'byId', 'post'] as const).map((k) => `| default >= 0.9x Prism static (${k}) | ${ratio(df[k].rps, st[k].rps)}x | ${df[k].rps >= 0.9 * st[k].rps ? 'yes' : 'NO'} |`),
    ...(['list', 'byId', 'post'] as const).map((k) => `| engine-only >= 10x Prism static, p99 <= 10 ms (${k}) | ${ratio(eo[k].rps, st[k].rps)}x, p99 ${eo[k].p99} ms | ${eo[k].rps >= 10 * st[k].rps && eo[k].p99 <= 10 ? 'yes' : 'NO'} |`),
    `| list page at 100k within 1.5x of 1k (p50 ${scale[100_000]!.page.p50} vs ${scale[1_000]!.page.p50} ms; req/s ${fmt(scale[100_000]!.page.rps)} vs ${fmt(scale[1_000]!.page.rps)}) | ${ratio(scale[1_000]!.page.rps, scale[100_000]!.page.rps)}x slower | ${scale[100_000]!.page.rps * 1.5 >= scale[1_000]!.page.rps ? 'yes' : 'NO'} |`,
    `| RSS at 100k patients <= 200 MB | ${scale[100_000]!.rssMb.toFixed(0)} MB (1k: ${scale[1_000]!.rssMb.toFixed(0)} MB) | ${scale[100_000]!.rssMb <= 200 ? 'yes' : 'NO'} |`,
    `| engine-only start to first 200 < 1.5 s | ${(first / 1000).toFixed(2)} s | ${first < 1500 ? 'yes' : 'NO'} |`,
    '',
    `${CONNECTIONS} connections, ${DURATION} s per row, autocannon; bare node:http ${fmt(bareR.list.rps)} req/s.`,
  );
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
