// One run, one table: req/s and p50/p99 latency at 20 connections for GET list, GET by id and POST patient in each
// mode (Prism static, default, engine-only) beside three ceilings answering with the engine's own bytes (bare
// node:http, Hono alone, and default mode's front and Prism proxy over an in-process stub engine: bench/ceiling.ts);
// a list page at 100k vs 1k patients; RSS with 100k patients; engine-only start to first 200. Every server runs in its own
// process; every load run is preceded by a warm-up (JIT) that is not counted, the same for every server. The
// servers run side by side and each route is measured on all of them in rounds that take the servers in turn
// (measureRoute), so that the rows a target compares (engine-only with Hono alone, default with Prism static) share
// the machine's load: on a shared machine it drifts between them otherwise. A row's req/s is over all its rounds, its
// p50 and p99 the median round's (with five rounds of a second, the worst round's p99 is one stalled second's, not
// the p99 of the row's requests; it is printed beside the target); a target's ratio is the median of the ratios of the two rows'
// rounds taken one after the other (this host's speed moves by a third over seconds: a slow spell then slows both
// sides of a ratio alike). The list page at 100k and at 1k is measured the same way, both servers up at once. Source runs use `node --import tsx`; when dist/ is built,
// start-up and RSS are also measured for the built binary (`node dist/mock/cli.js`), which is what
// `clinical-records-mock` runs and what the start-up and memory targets are judged on.
// Usage: npx tsx bench/run.ts [--duration <seconds>]   (no timed tests anywhere else)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSeed } from '../mock/seed/generate.ts';
import { readFlags } from './flags.ts';
import {
  type LoadOptions,
  loadAverage,
  type Measured,
  measureInTurn as measureRounds,
  POST_BODY,
  ROUTES,
  type RouteKey,
  target,
  paired,
  run as load,
  type Server,
  startProcess,
  stop,
} from './load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const { duration: DURATION } = readFlags('Usage: npx tsx bench/run.ts [--duration <seconds>]', { duration: { fallback: 5, min: 0.5 } });
const CONNECTIONS = 20;
const tmp = mkdtempSync(join(tmpdir(), 'mock-bench-'));
const LOAD_AT_START = loadAverage();

const DIST_CLI = join(ROOT, 'dist/mock/cli.js');

const startMock = (flags: string[], built = false) =>
  startProcess([built ? DIST_CLI : 'mock/cli.ts', '--port', '0', '--rate-limit', '1000000000/1', ...flags], /API\s+(http:\/\/\S+)/, {
    built,
  });

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

/**
 * One route on every server: a WARM_UP s warm-up each, then ROUNDS rounds of DURATION / ROUNDS seconds that take the servers
 * in turn, so that a burst of load from elsewhere on the machine falls on every server alike instead of on one row.
 */
const ROUNDS = 5;
/**
 * Seconds of load before a route's rounds. Every server (Prism static as much as default mode) serves about half its
 * steady rate in its first second and reaches it only after about 3 s of load: with 1 s, the first round measured
 * warm-up, not the server, and its share of the noise.
 */
const WARM_UP = 3;

async function measureRoute(route: RouteKey, servers: Array<{ server: Server; patient: string }>, key: string): Promise<Measured[]> {
  const targets = servers.map(({ server, patient }) => target(route, server, key, patient));
  return measureInTurn(targets);
}

/** Each target warmed, then measured in ROUNDS rounds that take the targets in turn. */
const measureInTurn = (targets: Array<[string, LoadOptions]>) =>
  measureRounds(targets, { warmUp: WARM_UP, rounds: ROUNDS, seconds: DURATION / ROUNDS, connections: CONNECTIONS });
const run = (url: string, opts: LoadOptions, duration: number) => load(url, opts, duration, CONNECTIONS);

async function main() {
  const seed = JSON.parse(readFileSync(join(ROOT, 'mock/seed/default.json'), 'utf8'));
  const key = seed.keys[0].key as string;
  const patient = seed.patients[0].id as string;

  // The machine's ceilings (bench/ceiling.ts): the engine's own answers, captured first, served by bare node:http and
  // by Hono alone, so that the engine-only rows can be read against what HTTP and the framework cost by themselves.
  // Order within a route: the ceilings, engine-only (judged against Hono alone), default's ceiling (its front and Prism
  // proxy over a stub engine answering the captured bytes), default, Prism static (default's baseline).
  const bodies = join(tmp, 'bodies.json');
  writeFileSync(bodies, JSON.stringify(await captureBodies(key, patient)));
  const servers: Array<{ label: string; server: Server; patient: string }> = [];
  const results: Record<string, Record<RouteKey, Measured>> = {};
  try {
    for (const [label, start] of [
      ['bare node:http, same bytes', () => startProcess(['bench/ceiling.ts', 'bare', bodies], /API\s+(http:\/\/\S+)/)],
      ['Hono alone, same bodies', () => startProcess(['bench/ceiling.ts', 'hono', bodies], /API\s+(http:\/\/\S+)/)],
      ['engine-only', () => startMock(['--engine-only'])],
      ['front + Prism proxy, stub engine', () => startProcess(['bench/ceiling.ts', 'proxy', bodies], /API\s+(http:\/\/\S+)/)],
      ['default (Prism proxy + engine)', () => startMock([])],
      ['Prism static', () => startProcess(['bench/prism-static.ts'], /API\s+(http:\/\/\S+)/)],
    ] as const)
      servers.push({ label, server: await start(), patient: label === 'Prism static' ? '7281928374650192837' : patient });
    for (const [route] of ROUTES) {
      const measured = await measureRoute(route, servers, key);
      for (const [i, { label }] of servers.entries()) (results[label] ??= {} as Record<RouteKey, Measured>)[route] = measured[i]!;
    }
  } finally {
    for (const { server } of servers) await stop(server);
  }
  for (const { label } of servers)
    for (const [route, name] of ROUTES) {
      const r = results[label]![route];
      row(label, name, fmt(r.rps), r.p50, r.p99, `${(r.ok * 100).toFixed(0)}%`);
    }

  // Scale: a list page and RSS with 1k and 100k patients (engine-only), from source and, when built, from dist/.
  const builtToo = existsSync(DIST_CLI);
  const scale: Record<string, { page: Measured; rssMb: number }> = {};
  const seeds: Record<number, { file: string; key: string }> = {};
  for (const n of [1_000, 100_000]) {
    const file = join(tmp, `seed-${n}.json`);
    const generated = await generateSeed({ patients: n });
    writeFileSync(file, JSON.stringify(generated));
    seeds[n] = { file, key: generated.keys[0]!.key }; // keys derive from the generator's sequence: not the default seed's
  }
  for (const built of builtToo ? [false, true] : [false]) {
    const sizes = [1_000, 100_000];
    const up = await Promise.all(sizes.map((n) => startMock(['--engine-only', '--seed', seeds[n]!.file], built)));
    try {
      const pageOf = (i: number): [string, LoadOptions] => [
        `${up[i]!.url}/patients?page=3`,
        { headers: { 'x-api-key': seeds[sizes[i]!]!.key } },
      ];
      // RSS as it has always been read: after a 1 s warm-up and DURATION s of list pages, each server on its own.
      const rss: number[] = [];
      for (const [i, s] of up.entries()) {
        const [url, opts] = pageOf(i);
        await run(url, opts, 1);
        await run(url, opts, DURATION);
        rss.push(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) / 1024);
      }
      const pages = await measureInTurn(up.map((_, i) => pageOf(i)));
      for (const i of up.keys()) scale[`${sizes[i]}${built ? ' built' : ''}`] = { page: pages[i]!, rssMb: rss[i]! };
    } finally {
      for (const s of up) await stop(s);
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
  const bare = results['bare node:http, same bytes']!;
  const hono = results['Hono alone, same bodies']!;
  const st = results['Prism static']!;
  const px = results['front + Prism proxy, stub engine']!;
  const df = results['default (Prism proxy + engine)']!;
  const eo = results['engine-only']!;
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const rss = (k: string) => scale[k]!.rssMb.toFixed(0);
  const yes = (met: boolean) => (met ? 'yes' : 'NO');
  const [small, big] = [scale['1000']!.page, scale['100000']!.page];
  const slower = paired(small, big);
  out.push(
    '',
    `| target | measured | context | met |`,
    `| --- | --- | --- | --- |`,
    ...ROUTES.map(
      ([k, name]) =>
        `| engine-only >= 0.75x Hono alone, p99 <= 10 ms (${name}) | ${paired(eo[k], hono[k]).toFixed(2)}x, p99 ${eo[k].p99} ms (worst round ${eo[k].worstP99}) | ` +
        `${fmt(eo[k].rps)} vs ${fmt(hono[k].rps)} req/s; bare node:http ${fmt(bare[k].rps)} req/s (engine-only ${ratio(eo[k].rps, bare[k].rps)}x); Prism static ${ratio(eo[k].rps, st[k].rps)}x | ` +
        `${yes(paired(eo[k], hono[k]) >= 0.75 && eo[k].p99 <= 10)} |`,
    ),
    ...ROUTES.map(
      ([k, name]) =>
        `| default >= 1.2x Prism static (${name}) | ${paired(df[k], st[k]).toFixed(2)}x | ${fmt(df[k].rps)} vs ${fmt(st[k].rps)} req/s; p99 ${df[k].p99} vs ${st[k].p99} ms; ` +
        `ceiling (front + Prism proxy, stub engine) ${ratio(px[k].rps, st[k].rps)}x | ${yes(paired(df[k], st[k]) >= 1.2)} |`,
    ),
    `| list page at 100k within 1.5x of 1k | ${slower.toFixed(2)}x slower | p50 ${big.p50} vs ${small.p50} ms; req/s ${fmt(big.rps)} vs ${fmt(small.rps)}; 2xx ${pct(big.ok)} | ${yes(slower <= 1.5 && big.ok === 1)} |`,
    `| RSS at 100k patients <= 200 MB (${builtToo ? 'built' : 'tsx'}) | ${rss(builtToo ? '100000 built' : '100000')} MB | 1k: ${rss(builtToo ? '1000 built' : '1000')} MB${builtToo ? `; through tsx: ${rss('100000')} MB, 1k ${rss('1000')} MB` : ''} | ${yes(scale[builtToo ? '100000 built' : '100000']!.rssMb <= 200)} |`,
    `| engine-only start to first 200 < 1.5 s (${builtToo ? 'built' : 'tsx'}) | ${(first / 1000).toFixed(2)} s | ${firstBuilt !== undefined ? `through tsx: ${(firstTsx / 1000).toFixed(2)} s` : ''} | ${yes(first < 1500)} |`,
    '',
    `${CONNECTIONS} connections, ${DURATION} s per row (${ROUNDS} rounds of ${DURATION / ROUNDS} s, servers in turn) after a ${WARM_UP} s warm-up, autocannon in the bench process; target ratios: the median of the rounds' ratios; load average at start ${LOAD_AT_START}, at the end ${loadAverage()}.`,
  );
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
