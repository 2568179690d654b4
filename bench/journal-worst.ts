// What the request journal's worst entries cost its readers (issue 32, item 4): a client plants `--entries` API
// requests whose query holds a long key-like word (the probe's worst case: `ab_`, `--kb` KB of letters, `_`, as the name
// of an unknown parameter, so its 400 names it too), then GET /__mock/requests?limit=<entries> is read `--reads` times
// while /__mock/health is probed back to back. Quadratic redaction made five such entries take 4.05 s to read and
// health wait 3.05 s meanwhile; the targets are a read under 100 ms with 500 entries and health under 50 ms.
// The mock runs in its own process: the built binary (`npm run build` first), or `--cli mock/cli.ts` for the sources
// (through tsx).
// Usage: npm run build && npx tsx bench/journal-worst.ts [--entries <n>] [--kb <n>] [--reads <n>] [--cli <path>]
//        [--mode default|engine-only]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readFlags } from './flags.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const opts = readFlags(
  'Usage: npx tsx bench/journal-worst.ts [--entries <n>] [--kb <n>] [--reads <n>] [--cli <path>] [--mode default|engine-only]',
  {
    entries: { fallback: 500, min: 1, max: 100_000, whole: true },
    kb: { fallback: 15, min: 1, max: 15, whole: true },
    reads: { fallback: 3, min: 1, whole: true },
  },
  ['cli', 'mode'],
);
if (opts.mode !== undefined && opts.mode !== 'default' && opts.mode !== 'engine-only') {
  console.error('--mode must be default or engine-only');
  process.exit(2);
}
const cli = resolve(ROOT, opts.cli ?? 'dist/mock/cli.js');
const args = [
  ...(opts.mode === 'engine-only' ? ['--engine-only'] : []),
  '--port',
  '0',
  '--journal-size',
  String(Math.max(500, opts.entries)),
  '--rate-limit',
  '1000000/60',
];
const proc = spawn(process.execPath, [...(cli.endsWith('.ts') ? ['--import', 'tsx'] : []), cli, ...args], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
proc.stdout.on('data', (d) => (out += d));
proc.stderr.on('data', (d) => (out += d));
process.on('exit', () => proc.kill('SIGKILL'));

async function seen(re: RegExp): Promise<string> {
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const m = out.match(re);
    if (m) return m[1]!;
  }
  throw new Error(`the mock did not start: ${out}`);
}
const url = await seen(/API\s+(http:\/\/\S+)/);
const control = await seen(/control\s+(http:\/\/\S+)/);
const key = await seen(/(crk_all_\w+)/);

/** The probe's worst case for the old redaction (a `\b..._[\w]*[A-Za-z0-9]{16,}\b` that backtracks over the word). */
const word = `ab_${'a'.repeat(opts.kb * 1000)}_`;
const t0 = performance.now();
for (let sent = 0; sent < opts.entries; ) {
  const batch = Math.min(20, opts.entries - sent);
  await Promise.all(
    Array.from({ length: batch }, async () => {
      const r = await fetch(`${url}/patients?${word}=1`, { headers: { 'x-api-key': key } });
      await r.arrayBuffer();
    }),
  );
  sent += batch;
}
const planted = performance.now() - t0;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
/** /__mock/health back to back until `done` says stop: each probe's latency. */
function probe(url: string, done: () => boolean): { latencies: number[]; ended: Promise<void> } {
  const latencies: number[] = [];
  const ended = (async () => {
    while (!done()) {
      const t = performance.now();
      await (await fetch(url, { signal: AbortSignal.timeout(600_000) })).arrayBuffer();
      latencies.push(performance.now() - t);
    }
  })();
  return { latencies, ended };
}
/** The reads of `url` from a worker thread (receiving megabytes would otherwise delay this thread's probes, not the
 * server's), while `health` is probed back to back: the reads' times and size, and the probes' latencies. */
async function readsWhileProbing(url: string, health: string) {
  let reading = true;
  const busy = probe(health, () => !reading);
  const reader = new Worker(
    `const { parentPort, workerData: { url, warm, reads } } = require('node:worker_threads');
    (async () => {
      // The reader's own fetch warmed first (on one small answer): the first read times the server, not undici's start.
      await (await fetch(warm)).arrayBuffer();
      const times = [];
      let bytes = 0;
      for (let i = 0; i < reads; i++) {
        const t = performance.now();
        bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
        times.push(performance.now() - t);
      }
      parentPort.postMessage({ times, bytes });
    })();`,
    { eval: true, workerData: { url, warm: health, reads: opts.reads } },
  );
  const { times, bytes } = await new Promise<{ times: number[]; bytes: number }>((resolve, reject) =>
    reader.once('message', resolve).once('error', reject),
  );
  reading = false;
  await busy.ended;
  await reader.terminate();
  return { times, bytes, probes: busy.latencies };
}

// The host's own pace first: health alone for a second (this shared 2-core host is rarely idle).
const idleUntil = performance.now() + 1000;
const idle = probe(`${control}/health`, () => performance.now() > idleUntil);
await idle.ended;
const journalUrl = `${control}/requests?limit=${opts.entries}`;
const { times: reads, bytes, probes } = await readsWhileProbing(journalUrl, `${control}/health`);

// The ceiling: a bare node:http process answering the same bytes, computed before the first read, in the journal's
// slices (256 KB, a turn of the event loop between them), with the same probes. No mock can read faster than this.
const body = join(mkdtempSync(join(tmpdir(), 'crc-journal-')), 'body.json');
writeFileSync(body, Buffer.from(await (await fetch(journalUrl)).arrayBuffer()));
const bare = spawn(
  process.execPath,
  [
    '-e',
    `const body = require('node:fs').readFileSync(process.argv[1]);
    require('node:http').createServer((req, res) => {
      if (req.url === '/health') return res.end('{"status":"ok"}');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let at = 0;
      const next = () => { if (at >= body.length) return res.end(); res.write(body.subarray(at, at += 262144)); setImmediate(next); };
      next();
    }).listen(0, '127.0.0.1', function () { console.log('at http://127.0.0.1:' + this.address().port); });`,
    body,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => bare.kill('SIGKILL'));
const bareUrl = await new Promise<string>((resolve) => bare.stdout.once('data', (d: Buffer) => resolve(String(d).match(/at (\S+)/)![1]!)));
const ceiling = await readsWhileProbing(`${bareUrl}/requests`, `${bareUrl}/health`);
bare.kill('SIGKILL');

const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(
  `planted ${opts.entries} requests with a ${opts.kb} KB key-like word in ${ms(planted)} (${cli.replace(ROOT, '')}, ${opts.mode ?? 'default'} mode)`,
);
console.log(`GET /__mock/requests?limit=${opts.entries}: ${reads.map(ms).join(', ')} (${bytes} bytes)`);
const health = (label: string, xs: number[]) =>
  console.log(`/__mock/health ${label}: ${xs.length} probes, p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}, max ${ms(Math.max(...xs))}`);
health('alone, before', idle.latencies);
health('during the reads', probes);
console.log(
  `ceiling, a bare node:http process sending the same ${ceiling.bytes} bytes in the same slices: ${ceiling.times.map(ms).join(', ')}`,
);
health('of the ceiling during its reads', ceiling.probes);
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
proc.kill('SIGKILL');
