// The --upstream proxy's cost, in one run, side by side: (1) the time it adds to one exchange against a loopback
// upstream (an engine-only mock): the same requests sent one at a time, alternating between the upstream directly and
// the proxy in front of it, each exchange's time taken on a keep-alive connection; target: p50 at most 2 ms more;
// (2) its throughput beside the default mock's (Prism's proxy and the engine) on the same routes, in rounds that take
// the two in turn; target: at least 0.8x. Beside them the ceiling of any proxy that makes the real hop: a bare
// node:http forwarder to the same upstream. The proxy prints its line per exchange, as a user runs it.
// Usage: npx tsx bench/upstream.ts [--duration <seconds per row>] [--exchanges <timed exchanges per side and route>]
import http from 'node:http';
import { readFlags } from './flags.ts';
import { type LoadOptions, loadAverage, measureInTurn, paired, ROUTES, type Server, startProcess, stop, target } from './load.ts';
import { median } from './median.ts';

const USAGE = 'Usage: npx tsx bench/upstream.ts [--duration <seconds per row>] [--exchanges <timed exchanges per side and route>]';
const { duration: DURATION, exchanges: EXCHANGES } = readFlags(USAGE, {
  duration: { fallback: 5, min: 0.5 },
  exchanges: { fallback: 2000, min: 10, whole: true },
});
const ROUNDS = 5;
const CONNECTIONS = 20;
const LOAD_AT_START = loadAverage();

const mock = (flags: string[]) => startProcess(['mock/cli.ts', '--port', '0', ...flags], /API\s+(http:\/\/\S+)/);

/** The ceiling of any proxy that makes the real hop: node:http piping each request to the upstream on keep-alive
 * sockets and the answer back, nothing else (no journal, no judge, no front). */
const BARE_FORWARDER = `
const http = require('node:http');
const up = new URL(process.argv[1]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
http.createServer((req, res) => {
  const out = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.writeHead(502).end());
  req.pipe(out);
}).listen(0, '127.0.0.1', function () { console.log('API http://127.0.0.1:' + this.address().port + up.pathname); });`;
const bareForwarder = (upstream: string) => startProcess(['-e', BARE_FORWARDER, upstream], /API\s+(http:\/\/\S+)/, { built: true });

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One exchange, timed from the request's start to its body's end, in ms. */
function timed(url: string, opts: LoadOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** p50 of each side's exchanges, sent alternately (a slow spell of the host falls on both). */
async function overhead(direct: [string, LoadOptions], proxied: [string, LoadOptions]) {
  for (let i = 0; i < 200; i++) await timed(...direct), await timed(...proxied); // warm-up (JIT), not counted
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < EXCHANGES; i++) a.push(await timed(...direct)), b.push(await timed(...proxied));
  return { direct: median(a), proxied: median(b) };
}

async function main() {
  const seed = (await import('../mock/seed/default.json', { with: { type: 'json' } })).default as {
    keys: Array<{ key: string }>;
    patients: Array<{ id: string }>;
  };
  const key = seed.keys[0]!.key;
  const patient = seed.patients[0]!.id;
  const servers: Server[] = [];
  try {
    const upstream = await mock(['--engine-only', '--rate-limit', '1000000000/1']);
    servers.push(upstream);
    const proxy = await mock(['--upstream', upstream.url]);
    servers.push(proxy);
    const dflt = await mock(['--rate-limit', '1000000000/1']);
    servers.push(dflt);
    const bare = await bareForwarder(upstream.url);
    servers.push(bare);

    const lines = ['| route | upstream p50 ms | through the proxy p50 ms | added | met (<= 2 ms) |', '| --- | --- | --- | --- | --- |'];
    for (const [route, name] of ROUTES) {
      const o = await overhead(target(route, upstream, key, patient), target(route, proxy, key, patient));
      const added = o.proxied - o.direct;
      lines.push(`| ${name} | ${o.direct.toFixed(2)} | ${o.proxied.toFixed(2)} | ${added.toFixed(2)} ms | ${added <= 2 ? 'yes' : 'NO'} |`);
    }
    lines.push(
      '',
      '| route | proxy req/s | default mock req/s | ratio (median of rounds) | p50 / p99 ms proxy, default | upstream alone req/s | ceiling: bare forwarder req/s, ratio to the default mock | met (>= 0.8x) |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    const rounds = { warmUp: 3, rounds: ROUNDS, seconds: DURATION / ROUNDS, connections: CONNECTIONS };
    for (const [route, name] of ROUTES) {
      // The upstream alone, for context: each exchange of the proxy costs the upstream's work as well as its own.
      const [p, d, u, b] = await measureInTurn(
        [proxy, dflt, upstream, bare].map((server) => target(route, server, key, patient)),
        rounds,
      );
      const ratio = paired(p!, d!);
      lines.push(
        `| ${name} | ${p!.rps.toFixed(0)} | ${d!.rps.toFixed(0)} | ${ratio.toFixed(2)}x | ${p!.p50} / ${p!.p99}, ${d!.p50} / ${d!.p99} | ${u!.rps.toFixed(0)} | ${b!.rps.toFixed(0)}, ${paired(b!, d!).toFixed(2)}x | ${ratio >= 0.8 ? 'yes' : 'NO'} |`,
      );
    }
    lines.push(
      '',
      `Overhead: ${EXCHANGES} exchanges per side and route, one at a time on a keep-alive connection, alternating. Throughput: ${CONNECTIONS} connections, ${DURATION} s per row (${ROUNDS} rounds, servers in turn) after a 3 s warm-up, autocannon in the bench process. Each server its own process (the proxy's upstream too). Load average at start ${LOAD_AT_START}, at the end ${loadAverage()}.`,
    );
    console.log(lines.join('\n'));
  } finally {
    agent.destroy();
    for (const s of servers) await stop(s);
  }
}

await main();
