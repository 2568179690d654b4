// Flags of clinical-records-conformance. Every bad flag or value is a UsageError (exit 2), never a stack trace.
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Profile } from '../../spec/runtime/schemas.ts';
import { KEY_VARS, scopedVar, scopesOfVar } from './keys.ts';
import { BadReplayId, parseReplayId, type ReplayId } from '../explore/replay-id.ts';
import { BadShard, parseShard, type Shard } from '../explore/shard.ts';
import { DEFAULT_MAX_TIME_MS, parseMaxTime } from './run-deadline.ts';

export class UsageError extends Error {}

/** node:util's parseArgs, strict and without positionals; its error, first line only, as a UsageError. Dredd's flags too. */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;
type StrictConfig<O extends FlagOptions> = { args: string[]; strict: true; allowPositionals: false; options: O };
export type ParsedFlags<O extends FlagOptions> = ReturnType<typeof parseArgs<StrictConfig<O>>>['values'];

export function parseFlags<const O extends FlagOptions>(argv: string[], options: O): ParsedFlags<O> {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, ''));
  }
}

/** --url: required, an absolute http(s) URL (the target's base URL). */
export function baseUrlFlag(raw: string | undefined): URL {
  if (!raw) throw new UsageError('--url <base_url> is required');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url must be an absolute http(s) URL, got "${raw}"`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--url must be http or https, got "${raw}"`);
  return url;
}

const REPORTERS = ['console', 'junit', 'json', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export interface CliOptions {
  help: boolean;
  url: string;
  key?: string;
  scopedKeys: Array<{ scopes: string[]; key: string }>;
  otherOrgKey?: string;
  expiredKey?: string;
  revokedKey?: string;
  mock: boolean;
  /** host: the address the receiver listens on (--webhook-host; loopback unless told). */
  webhookReceiver?: { publicUrl: string; port: number; host?: string };
  profile: Profile;
  only: string[];
  reporters: ReporterName[];
  out: string;
  concurrency: number;
  timeoutMs: number;
  checkTimeoutMs: number;
  readOnly: boolean;
  /** --baseline <report.json>: an earlier run whose failures are known. */
  baseline?: string;
  /** --min-coverage <percent>: a run whose rule coverage is below it exits 1 (a CI gate). */
  minCoverage?: number;
  /** --regenerable-session: a ready session with notes the suite may regenerate (no API route lists sessions). */
  regenerableSession?: string;
  /** --not-ready-session: a session not ready for regeneration (the 409 check). */
  notReadySession?: string;
  /** --har <file>: judge recorded traffic offline instead of a live target. */
  har?: string;
  /** --explore (with --seed, --explore-budget, or --replay <id>, which implies it). */
  explore?: { seed: number; budget: number; replay?: ReplayId };
  /** --shard k/n. */
  shard?: Shard;
  /** --max-time: the whole run's deadline. */
  maxTimeMs: number;
}

/** Requests the generated cases of --explore make unless told: 2000 took 2.4 to 13.4 s against the mock on the shared
 * 2-core machine (bench/explore.ts), so 3000 and their shrinking on a failing server fit in a minute where the key's
 * rate limit allows them (the mock's default 1200 a minute makes it about two: the run says so first, pacing-forecast.ts). */
export const DEFAULT_EXPLORE_BUDGET = 3000;

export const USAGE = `Usage: clinical-records-conformance --url <base_url> --key <key> [options]
       clinical-records-conformance --har <file> [--profile ...] [--reporter ...] [--out <dir>] [--baseline ...]
       npm run conformance -- --url <base_url> --key <key> [options]

Replays every rule of spec/rules.yaml that is testable from outside against a deployment of the
External Clinical Records API and reports rule by rule.

Target and keys (each key defaults to its environment variable, so it need not appear in a process
list or shell history; the curl lines of the reports name the same variables):
  --url <base_url>                 base URL including /ext-api/v1 (required)
  --key <key>                      a key with full access (*); default $${KEY_VARS.main}; optional with --mock
  --scoped-key <scope,scope>=<key> a key with exactly these scopes (repeatable): scope checks; <scope,scope>
                                   alone reads $${KEY_VARS.main}_<SCOPES> (patients:read: ..._PATIENTS_READ),
                                   and every such variable set is used too
  --other-org-key <key>            a key of another organization: tenant isolation, external_id unique per
                                   organization (not across); default $${KEY_VARS.otherOrg}
  --expired-key <key>              an expired key; default $${KEY_VARS.expired}
  --revoked-key <key>              a revoked key; default $${KEY_VARS.revoked}
  --mock                           the target is this kit's mock: keys, faults and a loopback
                                   webhook receiver come from its control API (/__mock)
  --webhook-receiver <public_url>  listen for deliveries of webhooks you registered in the web
  --webhook-port <n>               application to <public_url> (which forwards to this port)
  --webhook-host <address>         where the receiver listens (default 127.0.0.1, enough for a tunnel on
                                   this machine; 0.0.0.0 when the tunnel runs elsewhere, e.g. another container)

Sessions the suite may use (no API route lists sessions; without --mock it regenerates only these):
  --regenerable-session <id>       a ready session with notes the suite may regenerate (its note is rewritten):
                                   Idempotency-Key, 202, 400 and timing checks of regeneration
  --not-ready-session <id>         a session not ready for regeneration: the 409 check (nothing is regenerated)

Recorded traffic (no target is reached):
  --har <file>                     judge a HAR 1.2 file offline (the mock's /__mock/requests.har, a browser's
                                   devtools export, redocly proxy's capture) with the same judge: each request,
                                   response and answer check over every exchange; checks that send requests of
                                   their own are listed as not applicable

Selection and profile:
  --profile documented|all         documented (default): assumed rules never fail a run; all: check them too
  --only <area|rule id|check,...>  run only these areas, rule ids or check names
  --baseline <report.json>         the baseline.json (or report.json) of an earlier run: its failures are
                                   known (reported, not failing the run), matched by rule, check, operation,
                                   status and fingerprint; entries may expire; the run lists those now fixed
  --min-coverage <percent>         exit 1 when the run exercised fewer of the rules it counts (documented
                                   testable rules; with --har, documented exchange rules) than this share
  --read-only                      no writes at all (safe against production): write checks are skipped

Exploration (cases generated from the contract: positive, negative, stateful, without or with a wrong key):
  --explore                        explore after the rule checks (--only explore: explore alone)
  --seed <n>                       the seed of the generated cases (default: a random one, printed); the same seed
                                   and budget send the same cases in the same order
  --explore-budget <requests>      requests the generated cases may make (default ${DEFAULT_EXPLORE_BUDGET}); shrinking failures
                                   and re-checking them may make half as many more
  --replay <id>                    send the one case a failure names (its replay id, e.g. 7-42-3.0) and judge it
  --shard <k>/<n>                  run the k-th of n shares of the rule checks and of the exploration (CI matrix);
                                   join the shards' report.json files with: clinical-records-conformance merge <files>

Output and pacing:
  --reporter console,junit,json,html   one or several (default console)
  --out <dir>                      where junit.xml, report.json, baseline.json, report.html and (--mock)
                                   keys.env go (default conformance-report); checked before the run
  --concurrency <n>                requests in flight at once (default 4)
  --timeout <ms>                   per request (default 10000)
  --check-timeout <seconds>        per check (default 30): a check still running then is reported timed out
  --max-time <duration>            the whole run (default 15m; 90s, 20m, 1h or seconds): then it stops, cleans up
                                   (a minute at most) and writes every report with what it has; checks not begun
                                   are listed as not run, and the run fails. Rate-limit waits count against it
  --help                           this text

Exit codes: 0 every executed check passed, 1 a check failed, 2 bad usage or unreachable target.
A check is also reported blocked (a setup step it needs did not work: the rule whose check judges that step is
named) or timed out; either makes the exit code 1, as a failure does. Exit 2 also when the main key is refused.
With --baseline, a failure the baseline also had does not count: exit 0 when every failure is known.
Keys are never printed: curl lines read \${CLINICAL_RECORDS_KEY:?...} (and the other keys' variables), and the
output says how to set each.`;

/** --reporter: a comma-separated list of console, junit, json and html (default console). */
export function parseReporters(raw: string | undefined): ReporterName[] {
  const reporters = (raw ?? 'console')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean) as ReporterName[];
  for (const r of reporters)
    if (!REPORTERS.includes(r)) throw new UsageError(`--reporter: unknown "${r}" (choose from ${REPORTERS.join(', ')})`);
  return reporters;
}

type Env = Record<string, string | undefined>;
/** A variable's value, an empty one counting as unset. */
const fromEnv = (env: Env, name: string) => (env[name] ? env[name] : undefined);

/** Keys from variables named like the scoped curl lines' (CLINICAL_RECORDS_KEY_PATIENTS_READ, ...). */
function scopedKeysFromEnv(env: Env): Array<{ scopes: string[]; key: string }> {
  return Object.keys(env)
    .sort()
    .flatMap((name) => {
      const scopes = scopesOfVar(name);
      const key = fromEnv(env, name);
      return scopes && key ? [{ scopes, key }] : [];
    });
}

function positiveInt(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** A positive number of seconds (fractions allowed: 0.5), at most an hour. */
function positiveSeconds(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0 || Number(raw) > 3600)
    throw new UsageError(`${flag} must be a number of seconds above 0 and at most 3600, got "${raw}"`);
  return Number(raw);
}

const FLAGS = {
  url: { type: 'string' },
  key: { type: 'string' },
  'scoped-key': { type: 'string', multiple: true },
  'other-org-key': { type: 'string' },
  'expired-key': { type: 'string' },
  'revoked-key': { type: 'string' },
  mock: { type: 'boolean' },
  'webhook-receiver': { type: 'string' },
  'webhook-port': { type: 'string' },
  'webhook-host': { type: 'string' },
  profile: { type: 'string' },
  only: { type: 'string' },
  reporter: { type: 'string' },
  out: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  'check-timeout': { type: 'string' },
  'max-time': { type: 'string' },
  'read-only': { type: 'boolean' },
  baseline: { type: 'string' },
  'min-coverage': { type: 'string' },
  'regenerable-session': { type: 'string' },
  'not-ready-session': { type: 'string' },
  explore: { type: 'boolean' },
  seed: { type: 'string' },
  'explore-budget': { type: 'string' },
  replay: { type: 'string' },
  shard: { type: 'string' },
  har: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Flags = ParsedFlags<typeof FLAGS>;

export function parseCli(argv: string[], env: Env = process.env): CliOptions {
  const v = parseFlags(argv, FLAGS);
  const help = !!v.help;
  if (help)
    return {
      help,
      url: '',
      scopedKeys: [],
      mock: false,
      profile: 'documented',
      only: [],
      reporters: ['console'],
      out: '',
      concurrency: 4,
      timeoutMs: 10_000,
      checkTimeoutMs: 30_000,
      readOnly: false,
      maxTimeMs: DEFAULT_MAX_TIME_MS,
    };
  if (v.har !== undefined) return harOptions(v);
  const url = baseUrlFlag(v.url);
  const key = v.key ?? fromEnv(env, KEY_VARS.main);
  if (!key && !v.mock) throw new UsageError(`--key <key> is required (or $${KEY_VARS.main}, or --mock, which reads keys from the mock)`);
  const scopedKeys = (v['scoped-key'] ?? []).map((s) => {
    const eq = s.indexOf('=');
    const scopes = (eq >= 0 ? s.slice(0, eq) : s)
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    if (!scopes.length || (eq >= 0 && !s.slice(eq + 1)))
      throw new UsageError('--scoped-key must look like <scope,scope>=<key> or <scope,scope>, e.g. patients:read=<key>');
    for (const sc of scopes)
      if (sc !== '*' && !/^[a-z]+:[a-z]+$/.test(sc))
        throw new UsageError(`--scoped-key: "${sc}" is not a scope of the form resource:action`);
    const key = eq >= 0 ? s.slice(eq + 1) : fromEnv(env, scopedVar(scopes));
    if (!key) throw new UsageError(`--scoped-key ${s}: no key given and $${scopedVar(scopes)} is not set`);
    return { scopes, key };
  });
  for (const k of scopedKeysFromEnv(env)) if (!scopedKeys.some((s) => s.key === k.key)) scopedKeys.push(k);
  const { profile, reporters, out, baseline, minCoverage } = outputFlags(v);
  let webhookReceiver: CliOptions['webhookReceiver'];
  if (v['webhook-receiver'] || v['webhook-port']) {
    if (!v['webhook-receiver'] || !v['webhook-port'])
      throw new UsageError('--webhook-receiver <public_url> and --webhook-port <n> go together');
    try {
      new URL(v['webhook-receiver']);
    } catch {
      throw new UsageError(`--webhook-receiver must be an absolute URL, got "${v['webhook-receiver']}"`);
    }
    const port = positiveInt('--webhook-port', v['webhook-port'], 0);
    if (port > 65535) throw new UsageError('--webhook-port must be 1 to 65535');
    const host = v['webhook-host'];
    if (host !== undefined && !isIP(host)) throw new UsageError(`--webhook-host must be an IP address (e.g. 0.0.0.0), got "${host}"`);
    webhookReceiver = { publicUrl: v['webhook-receiver'], port, host };
  } else if (v['webhook-host']) throw new UsageError('--webhook-host goes with --webhook-receiver <public_url> --webhook-port <n>');
  return {
    help,
    url: url.toString().replace(/\/$/, ''),
    key,
    scopedKeys,
    otherOrgKey: v['other-org-key'] ?? fromEnv(env, KEY_VARS.otherOrg),
    expiredKey: v['expired-key'] ?? fromEnv(env, KEY_VARS.expired),
    revokedKey: v['revoked-key'] ?? fromEnv(env, KEY_VARS.revoked),
    mock: !!v.mock,
    webhookReceiver,
    profile,
    reporters,
    out,
    baseline,
    minCoverage,
    only: (v.only ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    concurrency: positiveInt('--concurrency', v.concurrency, 4),
    timeoutMs: positiveInt('--timeout', v.timeout, 10_000),
    checkTimeoutMs: positiveSeconds('--check-timeout', v['check-timeout'], 30) * 1000,
    maxTimeMs: parseMaxTime(v['max-time'], (why) => new UsageError(why)),
    readOnly: !!v['read-only'],
    ...sessionFlags(v['regenerable-session'], v['not-ready-session']),
    ...exploreFlags(v),
  };
}

/** Flags of a live run that mean nothing for a recorded file. */
const LIVE_ONLY = [
  'url',
  'key',
  'scoped-key',
  'other-org-key',
  'expired-key',
  'revoked-key',
  'mock',
  'webhook-receiver',
  'webhook-port',
  'webhook-host',
  'only',
  'concurrency',
  'timeout',
  'check-timeout',
  'max-time',
  'read-only',
  'regenerable-session',
  'not-ready-session',
  'explore',
  'seed',
  'explore-budget',
  'replay',
  'shard',
] as const;

/** --profile, --reporter, --out, --baseline and --min-coverage: what a live run and a recorded one share. */
function outputFlags(v: Flags): Pick<CliOptions, 'profile' | 'reporters' | 'out' | 'baseline' | 'minCoverage'> {
  const profile = (v.profile ?? 'documented') as Profile;
  if (profile !== 'documented' && profile !== 'all') throw new UsageError(`--profile must be documented or all, got "${v.profile}"`);
  const raw = v['min-coverage'];
  const minCoverage = raw === undefined ? undefined : Number(raw.replace(/%$/, ''));
  if (minCoverage !== undefined && (!/^\d+(\.\d+)?%?$/.test(raw!) || minCoverage > 100))
    throw new UsageError(`--min-coverage must be a percentage from 0 to 100, got "${raw}"`);
  return { profile, reporters: parseReporters(v.reporter), out: v.out ?? 'conformance-report', baseline: v.baseline, minCoverage };
}

/** --har <file>: the flags a recorded run takes (profile, reporters, out, baseline); a live run's flag is refused. */
function harOptions(v: Flags): CliOptions {
  const given = LIVE_ONLY.filter((f) => v[f] !== undefined);
  if (given.length)
    throw new UsageError(`--har judges a recorded file: --${given.join(', --')} ${given.length > 1 ? 'are' : 'is'} for a live run`);
  if (!v.har) throw new UsageError('--har needs a file: --har <file.har>');
  return {
    ...outputFlags(v),
    help: false,
    url: '',
    har: v.har,
    scopedKeys: [],
    mock: false,
    only: [],
    concurrency: 1,
    timeoutMs: 10_000,
    checkTimeoutMs: 30_000,
    readOnly: true,
    maxTimeMs: DEFAULT_MAX_TIME_MS,
  };
}

/** --explore, --seed, --explore-budget, --replay and --shard (a seed, budget or replay without exploration is a mistake). */
function exploreFlags(v: {
  explore?: boolean;
  seed?: string;
  'explore-budget'?: string;
  replay?: string;
  shard?: string;
}): Pick<CliOptions, 'explore' | 'shard'> {
  let shard: Shard | undefined;
  let replay: ReplayId | undefined;
  try {
    shard = v.shard === undefined ? undefined : parseShard(v.shard);
    replay = v.replay === undefined ? undefined : parseReplayId(v.replay);
  } catch (e) {
    if (e instanceof BadShard || e instanceof BadReplayId) throw new UsageError(e.message);
    throw e;
  }
  const on = !!v.explore || !!replay;
  if (!on && (v.seed !== undefined || v['explore-budget'] !== undefined))
    throw new UsageError('--seed and --explore-budget go with --explore');
  if (replay && v.seed !== undefined) throw new UsageError('--replay <id> names its seed: leave out --seed');
  if (replay && shard) throw new UsageError('--replay <id> sends one case: leave out --shard');
  if (v.seed !== undefined && (!/^\d{1,10}$/.test(v.seed) || Number(v.seed) > 0xffffffff))
    throw new UsageError(`--seed must be an integer from 0 to ${0xffffffff}, got "${v.seed}"`);
  const budget = positiveInt('--explore-budget', v['explore-budget'], DEFAULT_EXPLORE_BUDGET);
  if (budget > 1_000_000) throw new UsageError('--explore-budget must be at most 1000000 requests');
  const seed = replay?.seed ?? (v.seed === undefined ? Math.floor(Math.random() * 0xffffffff) : Number(v.seed));
  return { explore: on ? { seed, budget, replay } : undefined, shard };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** --regenerable-session and --not-ready-session: session ids (UUIDs, as the regenerate path takes them), two different ones. */
function sessionFlags(regenerable?: string, notReady?: string): Pick<CliOptions, 'regenerableSession' | 'notReadySession'> {
  for (const [flag, id] of [
    ['--regenerable-session', regenerable],
    ['--not-ready-session', notReady],
  ] as const)
    if (id !== undefined && !UUID.test(id)) throw new UsageError(`${flag} must be a session id (a UUID), got "${id}"`);
  if (regenerable && notReady && regenerable.toLowerCase() === notReady.toLowerCase())
    throw new UsageError('--regenerable-session and --not-ready-session name the same session: a session is either ready or not');
  return { regenerableSession: regenerable, notReadySession: notReady };
}
