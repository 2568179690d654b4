// The in-process mock's speed (issue 17): requests a second, sequential, one process, for GET list, GET by id and
// POST patient through createMock's fetch, beside the in-process ceiling measured in the same run: Hono alone, its
// app.fetch answering each route with the body the mock answered it with and the same headers (CORS and rate limit),
// reading the request body as the engine does. Every answer's body is read whole, in both. This machine's speed moves
// by ±30 % over seconds (a shared host), so each route runs in many short rounds, each round every target in turn in
// a rotated order, and a target's ratio is the median over rounds of its rate over the ceiling's rate in the same
// round: a slow spell then slows both sides of a ratio. Also: the key hash per request, the page's synchronous
// SHA-256 beside node:crypto's.
// Usage: npx tsx bench/in-process.ts [--seconds <per cell per round>] [--rounds <n>]
import { hash } from 'node:crypto';
import { Hono } from 'hono';
import { corsHeaders, corsPolicy } from '../mock/platform/cors.ts';
import { sha256Hex } from '../mock/platform/sha256.ts';
import { createMock } from '../mock/in-process/node.ts';
import { readFlags } from './flags.ts';
import { median } from './median.ts';

const { seconds: SECONDS, rounds: ROUNDS } = readFlags(
  'Usage: npx tsx bench/in-process.ts [--seconds <per cell per round>] [--rounds <n>]',
  {
    seconds: { fallback: 0.3, min: 0.05 },
    rounds: { fallback: 25, min: 1, whole: true },
  },
);

const mock = await createMock({ rateLimit: { requests: 1_000_000_000, seconds: 1 } });
const strict = await createMock({ rateLimit: { requests: 1_000_000_000, seconds: 1 }, strict: true });
const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
const json = { 'x-api-key': key, 'content-type': 'application/json' };
const newPatient = JSON.stringify({ first_name: 'Bench', last_name: 'Mark' });
const firstId = async (m: typeof mock) =>
  ((await (await m.fetch(`${m.baseUrl}/patients?limit=1`, { headers: json })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
const ids = { mock: await firstId(mock), strict: await firstId(strict) };

type Route = 'list' | 'byId' | 'post';
const ROUTES: Record<Route, string> = { list: 'GET /patients?limit=20', byId: 'GET /patients/{id}', post: 'POST /patients' };
const requestFor = (base: string, id: string, route: Route) =>
  route === 'post'
    ? new Request(`${base}/patients`, { method: 'POST', headers: json, body: newPatient })
    : new Request(route === 'list' ? `${base}/patients?limit=20` : `${base}/patients/${id}`, { headers: json });

// The ceiling answers what the mock answered, with the headers the engine sends a client without Origin.
const captured = {} as Record<Route, { status: number; body: object }>;
for (const route of Object.keys(ROUTES) as Route[]) {
  const r = await mock.fetch(requestFor(mock.baseUrl, ids.mock, route));
  captured[route] = { status: r.status, body: (await r.json()) as object };
}
const CORS = corsHeaders(corsPolicy(), undefined);
const ceiling = new Hono();
ceiling.all('*', async (c) => {
  const route: Route = c.req.method === 'POST' ? 'post' : c.req.path.endsWith('/patients') ? 'list' : 'byId';
  if (route === 'post') await c.req.json();
  const h: Record<string, string> = {
    ...CORS,
    'X-RateLimit-Limit': '1000000000',
    'X-RateLimit-Remaining': '999999999',
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 1),
  };
  for (const k in h) c.header(k, h[k]);
  return c.json(captured[route].body, captured[route].status as 200);
});

type Target = (route: Route) => Promise<Response>;
const targets: Record<string, Target> = {
  'in-process fetch': (route) => mock.fetch(requestFor(mock.baseUrl, ids.mock, route)),
  'in-process fetch, strict': (route) => strict.fetch(requestFor(strict.baseUrl, ids.strict, route)),
  'ceiling: Hono app.fetch': (route) => Promise.resolve(ceiling.fetch(requestFor(mock.baseUrl, ids.mock, route))),
};

async function rate(target: Target, route: Route, seconds: number): Promise<number> {
  let n = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const r = await target(route);
    await r.text();
    if (r.status >= 400) throw new Error(`${ROUTES[route]}: ${r.status}`);
    n++;
  }
  return n / seconds;
}

const CEILING = 'ceiling: Hono app.fetch';
const names = Object.keys(targets);
/** Per target and route: the median rate, and the median of its per-round ratios to the ceiling. */
const results: Record<string, Record<Route, { rate: number; ratio: number }>> = {};
for (const route of Object.keys(ROUTES) as Route[]) {
  for (const t of Object.values(targets)) await rate(t, route, 0.5); // warm-up (JIT), not counted
  const rounds: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < ROUNDS; i++) {
    const order = names.map((_, j) => names[(i + j) % names.length]!); // rotated: no target always runs first
    const round: Record<string, number> = {};
    for (const name of order) round[name] = await rate(targets[name]!, route, SECONDS);
    for (const name of names) rounds[name]!.push(round[name]!), ratios[name]!.push(round[name]! / round[CEILING]!);
  }
  for (const name of names) (results[name] ??= {} as never)[route] = { rate: median(rounds[name]!), ratio: median(ratios[name]!) };
}

const hashRate = (fn: (s: string) => string) => {
  const end = performance.now() + 500;
  let n = 0;
  while (performance.now() < end) fn(`${key}${n & 7}`), n++;
  return n / 0.5;
};
const [pureJs, nodeCrypto] = [hashRate(sha256Hex), hashRate((s) => hash('sha256', s, 'hex'))];

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
console.log(
  `\nin-process, sequential, ${ROUNDS} rounds of ${SECONDS} s per cell; median rate, and (x) the median of the round's ratio to the ceiling (node ${process.version}, load ${(await import('node:os')).loadavg()[0]!.toFixed(2)})\n`,
);
const routes = Object.keys(ROUTES) as Route[];
console.log(`| row | ${Object.values(ROUTES).join(' | ')} |`);
console.log(`|---|${routes.map(() => '---:').join('|')}|`);
for (const [name, r] of Object.entries(results)) {
  const cells = routes.map((route) =>
    name === CEILING ? `${fmt(r[route].rate)}/s` : `${fmt(r[route].rate)}/s (${r[route].ratio.toFixed(2)}x)`,
  );
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
console.log(
  `\nkey hash per request: page SHA-256 (mock/platform/sha256.ts) ${fmt(pureJs)}/s = ${(1e6 / pureJs).toFixed(2)} µs; node:crypto ${fmt(nodeCrypto)}/s = ${(1e6 / nodeCrypto).toFixed(2)} µs\n`,
);
const TARGET = 0.75;
console.log('| target (issue 17) | measured | met |\n|---|---|---|');
for (const route of routes) {
  const ratio = results['in-process fetch']![route].ratio;
  console.log(
    `| in-process fetch >= ${TARGET}x the ceiling (${ROUTES[route]}) | ${ratio.toFixed(2)}x | ${ratio >= TARGET ? 'yes' : 'NO'} |`,
  );
}
await Promise.all([mock.close(), strict.close()]);
