#!/usr/bin/env -S npx tsx
// clinical-records-mock: the stateful mock in one command. Parses the flags (bad ones: a clear message, exit 2),
// starts the mock, prints the banner, and closes cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { ANY_HOST, parseAllowedHost } from './front/host-check.ts';
import { parseCorsOrigin } from './platform/cors.ts';
import { MAX_FAULT_MS, parseLatency } from './platform/network-faults.ts';
import { parseRateLimit } from './platform/rate-limit.ts';
import { MAX_JOURNAL_SIZE } from './platform/request-journal.ts';
import { SeedError } from './seed/load.ts';
import { StateFileError } from './platform/journal.ts';
import type { MockMode, MockOptions, RunningMock } from './server.ts';
import { isMainModule } from '../spec/runtime/main-module.ts';
import { activeReadings, type ReadingsChoice } from './readings/active.ts';
import { applyMemoryFlags } from './memory-flags.ts';

const USAGE = `Usage: clinical-records-mock [options]

  --port <n>               port to listen on (default 4010; 0 = any free port)
  --internal-port <n>      the second port, on 127.0.0.1 only: default mode's engine behind Prism, --static's
                           Prism (default 0 = any free port); engine-only and --upstream open none
  --host <address>         address to bind (default 127.0.0.1)
  --seed <file>            your own seed file, same format as mock/seed/default.json
  --time-scale <factor>    multiplies every simulated duration (1 = as documented, 0.01 = 100x faster)
  --rate-limit <n>/<s>     requests per key per window of s seconds (default 1200/60)
  --strict                 a response that breaks the contract becomes an error and is logged
  --static                 Prism's plain mock from the spec: no engine, no state
  --engine-only            the engine alone, without Prism in front (load work)
  --state <file>           keep state in this file across restarts (every acknowledged write survives a kill)
  --allow-private-webhooks let webhooks reach loopback and private addresses over plain http
  --cors-origin <origin>   also let pages of this origin read API answers (repeatable; '*' for every origin);
                           pages served from localhost, 127.0.0.1 or [::1] always may
  --allowed-host <name>    also answer requests whose Host is this name (repeatable; '.example.test' for it and its
                           subdomains; 'all' for any): IP addresses, localhost, *.localhost and --host always pass
  --journal-size <n>       API requests the request journal keeps (default 500; 0 = none)
  --latency <ms>           every API answer waits this long: 200, or a range 100-400 (drawn per request)
  --upstream <base_url>    a validation proxy: every API request goes to this service (with /ext-api/v1), with
                           the client's own headers and key; each exchange is judged rule by rule (journal,
                           dashboard, one terminal line each); faults still apply in front of it
  --upstream-errors        with --upstream: a response that breaks a rule is answered 502 with the violations
  --profile <name>         with --upstream: documented (default) judges the document's rules; all adds the kit's
                           assumptions
  --reading <id>           play another reading of the document where it leaves room (repeatable; the ids:
                           GET /__mock/readings, spec/readings.yaml): test your app against another team's server
  --readings all|random    every reading that combines with the others, or a draw of them (--seed <n> seeds it)
  --quiet                  print nothing but errors
  --help                   this text`;

export class UsageError extends Error {}

/** Every flag the command takes, as node:util's parseArgs reads them. */
const FLAGS = {
  port: { type: 'string' },
  'internal-port': { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  'time-scale': { type: 'string' },
  'rate-limit': { type: 'string' },
  strict: { type: 'boolean' },
  static: { type: 'boolean' },
  'engine-only': { type: 'boolean' },
  state: { type: 'string' },
  'allow-private-webhooks': { type: 'boolean' },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'journal-size': { type: 'string' },
  latency: { type: 'string' },
  upstream: { type: 'string' },
  'upstream-errors': { type: 'boolean' },
  profile: { type: 'string' },
  reading: { type: 'string', multiple: true },
  readings: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type FlagValues = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: typeof FLAGS }>>['values'];

/** The flags as given; an unknown flag, a missing value or a stray argument is a usage error in parseArgs' words. */
function readFlags(argv: string[]): FlagValues {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options: FLAGS }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A flag's parsed value; none (its parser refused the text) is the usage error `refused`. */
function refuseNone<T>(value: T | undefined, refused: string): T {
  if (!value) throw new UsageError(refused);
  return value;
}

/**
 * The flags whose value stands on its own: each one's check, and the option it gives, in the order they are checked
 * (with several bad flags, the first of this table is the one reported).
 */
const VALUE_FLAGS: { [F in keyof FlagValues]?: (value: NonNullable<FlagValues[F]>) => Partial<MockOptions> } = {
  port: (text) => ({ port: portFlag('--port', text) }),
  'internal-port': (text) => ({ internalPort: portFlag('--internal-port', text) }),
  host: (text) => {
    if (!text.trim()) throw new UsageError('--host must not be empty');
    return { host: text };
  },
  'time-scale': (text) => {
    const f = Number(text);
    if (!text.trim() || !Number.isFinite(f) || f <= 0) throw new UsageError(`--time-scale must be a number greater than 0, got "${text}"`);
    return { timeScale: f };
  },
  'rate-limit': (text) => ({
    rateLimit: refuseNone(parseRateLimit(text), `--rate-limit must be <requests>/<seconds> with both positive, e.g. 100/60; got "${text}"`),
  }),
  'cors-origin': (texts) => ({
    corsOrigins: texts.map((o) =>
      refuseNone(
        parseCorsOrigin(o),
        `--cors-origin must be an origin such as http://app.example.test:3000 (scheme, host, optional port; no path) or *, got "${o}"`,
      ),
    ),
  }),
  'allowed-host': (texts) => ({
    allowedHosts: texts.map((h) =>
      refuseNone(
        parseAllowedHost(h),
        `--allowed-host must be a host name such as app.example.test (no port), .example.test or all; got "${h}"`,
      ),
    ),
  }),
  'journal-size': (text) => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > MAX_JOURNAL_SIZE)
      throw new UsageError(`--journal-size must be an integer from 0 to ${MAX_JOURNAL_SIZE}, got "${text}"`);
    return { journalSize: n };
  },
  latency: (text) => {
    const latency = parseLatency(text);
    if (latency === undefined)
      throw new UsageError(`--latency must be milliseconds from 0 to ${MAX_FAULT_MS}, e.g. 200 or 100-400; got "${text}"`);
    return { latency };
  },
};

/** The options of VALUE_FLAGS' flags given, each checked. */
function valueFlags(values: FlagValues): Partial<MockOptions> {
  const opts: Partial<MockOptions> = {};
  for (const [flag, read] of Object.entries(VALUE_FLAGS) as Array<[keyof FlagValues, (value: unknown) => Partial<MockOptions>]>)
    if (values[flag] !== undefined) Object.assign(opts, read(values[flag]));
  return opts;
}

/** The mode the flags ask for, and the flags that mode cannot take (checked once --upstream is read). */
function modeFlags(values: FlagValues, opts: MockOptions): MockMode {
  const mode: MockMode = values.static ? 'static' : values['engine-only'] ? 'engine-only' : 'default';
  if (mode === 'static' && (values.state || values['rate-limit'] || values['time-scale'] || values['journal-size'] || values.latency))
    throw new UsageError('--static runs Prism alone: --state, --rate-limit, --time-scale, --journal-size and --latency need the engine');
  if (opts.internalPort !== undefined && (mode === 'engine-only' || opts.upstream !== undefined))
    throw new UsageError(`--internal-port: ${mode === 'engine-only' ? '--engine-only' : '--upstream'} opens one port only (--port)`);
  if (opts.internalPort && opts.internalPort === (opts.port ?? 4010))
    throw new UsageError(`--internal-port must differ from --port (both ${opts.internalPort})`);
  if (mode === 'engine-only' && values.strict) throw new UsageError('--strict needs Prism in front: drop --engine-only');
  return mode;
}

export function parseFlags(argv: string[]): MockOptions & { help?: boolean } {
  const values = readFlags(argv);
  const opts: MockOptions & { help?: boolean } = { help: values.help, ...valueFlags(values) };
  if (values.static && values['engine-only']) throw new UsageError('--static and --engine-only exclude each other');
  Object.assign(opts, upstreamFlags(values));
  const mode = modeFlags(values, opts);
  const readings = readingsFlags(values, mode);
  if (readings) opts.readings = readings;
  else if (values.seed !== undefined) opts.seed = values.seed;
  if (values.state !== undefined) opts.state = values.state;
  opts.mode = mode;
  opts.strict = values.strict ?? false;
  opts.quiet = values.quiet ?? false;
  opts.allowPrivateWebhooks = values['allow-private-webhooks'] ?? false;
  return opts;
}

/**
 * --reading <id> (repeatable) and --readings all|random; with --readings random an integer --seed seeds the draw (a
 * seed file named by digits alone is passed as ./<name>). Checked here so that a bad id stops the start, exit 2.
 */
function readingsFlags(values: { reading?: string[]; readings?: string; seed?: string; upstream?: string }, mode: MockMode) {
  const ids = values.reading ?? [];
  const set = values.readings;
  if (!ids.length && set === undefined) return undefined;
  if (mode === 'static' || values.upstream !== undefined)
    throw new UsageError('--reading and --readings are played by the engine: they do not go with --static or --upstream');
  if (ids.length && set !== undefined)
    throw new UsageError('--reading and --readings exclude each other: name readings, or take all or random');
  let choice: ReadingsChoice = ids;
  if (set === 'all') choice = 'all';
  else if (set === 'random') {
    if (values.seed === undefined || !/^\d{1,9}$/.test(values.seed))
      throw new UsageError(
        `--readings random needs --seed <n>, an integer that makes the draw repeatable${values.seed ? `; got "${values.seed}"` : ''}`,
      );
    choice = { random: Number(values.seed) };
  } else if (set !== undefined) throw new UsageError(`--readings must be all or random, got "${set}"; one reading: --reading <id>`);
  try {
    activeReadings(choice);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return choice;
}

/** A port flag's value: an integer from 0 (any free port) to 65535. */
function portFlag(flag: string, text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`${flag} must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

const ENGINE_FLAGS = ['static', 'engine-only', 'strict', 'seed', 'state', 'time-scale', 'rate-limit', 'allow-private-webhooks'] as const;

/** --upstream, --upstream-errors and --profile: the proxy's flags, and what they exclude (the engine's own). */
function upstreamFlags(values: Record<string, string | boolean | string[] | undefined>): Partial<MockOptions> {
  const raw = values.upstream as string | undefined;
  if (raw === undefined) {
    for (const f of ['upstream-errors', 'profile'])
      if (values[f] !== undefined) throw new UsageError(`--${f} goes with --upstream <base_url>`);
    return {};
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--upstream must be an absolute http(s) URL such as https://staging.example.org/ext-api/v1, got "${raw}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new UsageError(`--upstream must be an http(s) base URL without credentials, query or fragment, got "${raw}"`);
  const clash = ENGINE_FLAGS.filter((f) => values[f] !== undefined);
  if (clash.length)
    throw new UsageError(`--upstream sends every API request to the real service: --${clash.join(', --')} need the mock's engine`);
  const profile = (values.profile as string | undefined) ?? 'documented';
  if (profile !== 'documented' && profile !== 'all') throw new UsageError(`--profile must be documented or all, got "${profile}"`);
  return { upstream: url.href.replace(/\/$/, ''), upstreamErrors: !!values['upstream-errors'], profile };
}

export function banner(m: RunningMock, opts: MockOptions): string {
  const orgName = new Map(m.organizations.map((o) => [o.id, o.name]));
  const mode =
    m.mode === 'upstream'
      ? `upstream: a validation proxy in front of ${opts.upstream} (profile ${opts.profile ?? 'documented'}${opts.upstreamErrors ? '; a violating answer becomes a 502' : ''})`
      : m.mode === 'static'
        ? 'static (Prism plain mock from the spec; no state; any X-API-Key value passes; control API: /health only)'
        : m.mode === 'engine-only'
          ? 'engine-only (no Prism in front)'
          : `default (Prism validation proxy${opts.strict ? ', strict' : ''} in front of the stateful engine)`;
  const lines = [
    'clinical-records-mock',
    `  API       ${m.url}`,
    `  control   ${m.mode === 'static' ? `${m.controlUrl}/health only` : m.controlUrl}`,
    ...(m.mode === 'static'
      ? []
      : [`  dashboard ${m.controlUrl}/  (requests, faults, documents, sessions, webhooks)`, `  API docs  ${m.controlUrl}/docs`]),
    `  mode      ${mode}`,
    `  browsers  ${opts.corsOrigins?.includes('*') ? 'pages of every origin may read the API' : `pages of localhost, 127.0.0.1 and [::1]${opts.corsOrigins?.length ? `, ${opts.corsOrigins.join(', ')}` : ''} may read the API (--cors-origin for more)`}`,
    `  hosts     ${opts.allowedHosts?.includes(ANY_HOST) ? 'any Host name' : `localhost, *.localhost, IP addresses, ${opts.host ?? '127.0.0.1'}${opts.allowedHosts?.length ? `, ${opts.allowedHosts.join(', ')}` : ''} (--allowed-host for more)`}`,
    ...(m.mode === 'static' || m.mode === 'upstream'
      ? []
      : [
          `  limits    ${m.rateLimit.requests} requests / ${m.rateLimit.seconds} s per key; time scale ${opts.timeScale ?? 1}${opts.latency === undefined ? '' : `; latency ${typeof opts.latency === 'number' ? opts.latency : opts.latency.join('-')} ms`}`,
          `  state     ${opts.state ?? 'in memory (reset on restart)'}`,
          `  readings  ${m.engine?.readings.any ? m.engine.readings.ids.join(', ') : "the kit's everywhere (--reading <id>, --readings all: GET /__mock/readings)"}`,
        ]),
  ];
  // Against an upstream, the client's own keys are the upstream's: the seed's mean nothing there.
  if (m.mode === 'upstream')
    return [...lines, '', '  keys      your own: every header is passed to the upstream, never stored or shown'].join('\n');
  lines.push('', '  API keys (header X-API-Key):');
  for (const k of m.keys)
    lines.push(
      `    ${k.key}  ${(orgName.get(k.organization_id) ?? k.organization_id).padEnd(28)} ${k.state.padEnd(8)} ${k.scopes.join(' ')}`,
    );
  const first = m.keys.find((k) => k.state === 'active');
  if (first) lines.push('', `  try: curl -H 'X-API-Key: ${first.key}' ${m.url}/patients`);
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  let opts: ReturnType<typeof parseFlags>;
  try {
    opts = parseFlags(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`clinical-records-mock: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  let startMock: typeof import('./server.ts').startMock;
  try {
    ({ startMock } = await import('./server.ts'));
  } catch (e) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec((e as Error).message)?.[1];
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw e;
    // Installed with --omit=optional (the light path for createMock and MSW): the command's own packages were left out.
    console.error(
      `clinical-records-mock: the command needs ${missing}, an optional dependency this install left out (npm install --omit=optional installs only createMock and the MSW handlers); install the package without --omit=optional to run the command`,
    );
    return 1;
  }
  let mock: RunningMock;
  try {
    mock = await startMock(opts);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (e instanceof SeedError || e instanceof StateFileError) console.error(`clinical-records-mock: ${err.message}`);
    else if (err.code === 'EADDRINUSE') {
      const internal = opts.internalPort !== undefined && (err as { port?: number }).port === opts.internalPort;
      const [port, flag] = internal ? [opts.internalPort, '--internal-port'] : [opts.port ?? 4010, '--port'];
      console.error(`clinical-records-mock: port ${port} is already in use; pick another with ${flag}`);
    } else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
      console.error(`clinical-records-mock: cannot bind to host ${opts.host}`);
    else if (err.code === 'EACCES')
      console.error(`clinical-records-mock: not allowed to listen on port ${opts.port} (or to open ${opts.state})`);
    else console.error(`clinical-records-mock: could not start: ${err.message}`);
    return 1;
  }
  if (!opts.quiet) console.log(banner(mock, opts));
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1; // keep running
}

if (isMainModule(import.meta.url)) {
  applyMemoryFlags(); // the command's process only: main() also runs inside tests
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
