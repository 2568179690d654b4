// Flags of clinical-records-conformance. Every bad flag or value is a UsageError (exit 2), never a stack trace.
import { parseArgs } from 'node:util';
import type { Profile } from './schemas.ts';

export class UsageError extends Error {}

export const REPORTERS = ['console', 'junit', 'json', 'html'] as const;
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
  webhookReceiver?: { publicUrl: string; port: number };
  profile: Profile;
  only: string[];
  reporters: ReporterName[];
  out: string;
  concurrency: number;
  timeoutMs: number;
  checkTimeoutMs: number;
  readOnly: boolean;
}

export const USAGE = `Usage: clinical-records-conformance --url <base_url> --key <key> [options]
       npm run conformance -- --url <base_url> --key <key> [options]

Replays every rule of spec/rules.yaml that is testable from outside against a deployment of the
External Clinical Records API and reports rule by rule.

Target and keys:
  --url <base_url>                 base URL including /ext-api/v1 (required)
  --key <key>                      a key with full access (*); optional with --mock
  --scoped-key <scope,scope>=<key> a key with exactly these scopes (repeatable): scope checks
  --other-org-key <key>            a key of another organization: tenant isolation
  --expired-key <key>              an expired key       --revoked-key <key>   a revoked key
  --mock                           the target is this kit's mock: keys, faults and a loopback
                                   webhook receiver come from its control API (/__mock)
  --webhook-receiver <public_url>  listen for deliveries of webhooks you registered in the web
  --webhook-port <n>               application to <public_url> (which forwards to this port)

Selection and profile:
  --profile documented|all         documented (default): assumed rules never fail a run; all: check them too
  --only <area|rule id|check,...>  run only these areas, rule ids or check names
  --read-only                      no writes at all (safe against production): write checks are skipped

Output and pacing:
  --reporter console,junit,json,html   one or several (default console)
  --out <dir>                      where junit.xml, report.json and report.html go (default conformance-report)
  --concurrency <n>                requests in flight at once (default 4)
  --timeout <ms>                   per request (default 10000)
  --check-timeout <seconds>        per check (default 30): a check still running then is reported timed out
  --help                           this text

Exit codes: 0 every executed check passed, 1 a check failed, 2 bad usage or unreachable target.
A check is also reported blocked (a setup step it needs did not work: the rule whose check judges that step is
named) or timed out; either makes the exit code 1, as a failure does. Exit 2 also when the main key is refused.
Keys are never printed: curl lines use $CLINICAL_RECORDS_KEY (and $CLINICAL_RECORDS_*_KEY for the others).`;

function positiveInt(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** A positive number of seconds (fractions allowed: 0.5), at most an hour. */
function positiveSeconds(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0 || Number(raw) > 3600) throw new UsageError(`${flag} must be a number of seconds above 0 and at most 3600, got "${raw}"`);
  return Number(raw);
}

export function parseCli(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        'scoped-key': { type: 'string', multiple: true },
        'other-org-key': { type: 'string' },
        'expired-key': { type: 'string' },
        'revoked-key': { type: 'string' },
        mock: { type: 'boolean' },
        'webhook-receiver': { type: 'string' },
        'webhook-port': { type: 'string' },
        profile: { type: 'string' },
        only: { type: 'string' },
        reporter: { type: 'string' },
        out: { type: 'string' },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        'check-timeout': { type: 'string' },
        'read-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, ''));
  }
  const v = parsed.values;
  const help = !!v.help;
  if (help) return { help, url: '', scopedKeys: [], mock: false, profile: 'documented', only: [], reporters: ['console'], out: '', concurrency: 4, timeoutMs: 10_000, checkTimeoutMs: 30_000, readOnly: false };
  if (!v.url) throw new UsageError('--url <base_url> is required');
  let url: URL;
  try {
    url = new URL(v.url);
  } catch {
    throw new UsageError(`--url must be an absolute http(s) URL, got "${v.url}"`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`--url must be http or https, got "${v.url}"`);
  if (!v.key && !v.mock) throw new UsageError('--key <key> is required (or --mock, which reads keys from the mock)');
  const scopedKeys = (v['scoped-key'] ?? []).map((s) => {
    const eq = s.indexOf('=');
    const scopes = eq > 0 ? s.slice(0, eq).split(',').map((x) => x.trim()).filter(Boolean) : [];
    const key = eq > 0 ? s.slice(eq + 1) : '';
    if (!scopes.length || !key) throw new UsageError('--scoped-key must look like <scope,scope>=<key>, e.g. patients:read=<key>');
    for (const sc of scopes) if (sc !== '*' && !/^[a-z]+:[a-z]+$/.test(sc)) throw new UsageError(`--scoped-key: "${sc}" is not a scope of the form resource:action`);
    return { scopes, key };
  });
  const profile = (v.profile ?? 'documented') as Profile;
  if (profile !== 'documented' && profile !== 'all') throw new UsageError(`--profile must be documented or all, got "${v.profile}"`);
  const reporters = (v.reporter ?? 'console').split(',').map((r) => r.trim()).filter(Boolean) as ReporterName[];
  for (const r of reporters) if (!REPORTERS.includes(r)) throw new UsageError(`--reporter: unknown "${r}" (choose from ${REPORTERS.join(', ')})`);
  let webhookReceiver: CliOptions['webhookReceiver'];
  if (v['webhook-receiver'] || v['webhook-port']) {
    if (!v['webhook-receiver'] || !v['webhook-port']) throw new UsageError('--webhook-receiver <public_url> and --webhook-port <n> go together');
    try {
      new URL(v['webhook-receiver']);
    } catch {
      throw new UsageError(`--webhook-receiver must be an absolute URL, got "${v['webhook-receiver']}"`);
    }
    const port = positiveInt('--webhook-port', v['webhook-port'], 0);
    if (port > 65535) throw new UsageError('--webhook-port must be 1 to 65535');
    webhookReceiver = { publicUrl: v['webhook-receiver'], port };
  }
  return {
    help,
    url: url.toString().replace(/\/$/, ''),
    key: v.key,
    scopedKeys,
    otherOrgKey: v['other-org-key'],
    expiredKey: v['expired-key'],
    revokedKey: v['revoked-key'],
    mock: !!v.mock,
    webhookReceiver,
    profile,
    only: (v.only ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    reporters,
    out: v.out ?? 'conformance-report',
    concurrency: positiveInt('--concurrency', v.concurrency, 4),
    timeoutMs: positiveInt('--timeout', v.timeout, 10_000),
    checkTimeoutMs: positiveSeconds('--check-timeout', v['check-timeout'], 30) * 1000,
    readOnly: !!v['read-only'],
  };
}
