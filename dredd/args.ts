// Flags of `npm run dredd`. Every bad flag or value is a UsageError (exit 2), never a stack trace.
import { baseUrlFlag, parseFlags, UsageError } from '../conformance/run/args.ts';
import { DEFAULT_TIMEOUT_MS } from './guard.ts';

export { UsageError };

/** Dredd's reporters, less `apiary`, which uploads every request (with its key) to a third-party service. */
const REPORTERS = ['cli', 'dot', 'nyan', 'xunit', 'html', 'markdown'] as const;
export type ReporterName = (typeof REPORTERS)[number];
/** The reporters that write a file into --out, and its name there. */
export const REPORT_FILES: Partial<Record<ReporterName, string>> = { xunit: 'dredd.xml', html: 'dredd.html', markdown: 'dredd.md' };

/** The same variable as the conformance suite's: the key may come from the environment instead of the command line. */
export const KEY_ENV = 'CLINICAL_RECORDS_KEY';

export interface DreddOptions {
  help: boolean;
  url: string;
  /** Absent only with --mock: the run then takes the mock's `*` key from /__mock/keys, as the suite does. */
  key?: string;
  mock: boolean;
  reporters: ReporterName[];
  out: string;
  /** Per request, from connect to the answer's last byte. */
  timeoutMs: number;
}

export const USAGE = `Usage: npm run dredd -- --url <base_url> --key <key> [--mock] [--reporter <dredd reporter>] [--out <dir>] [--timeout <ms>]

Runs Dredd 14 (a second opinion beside the conformance suite) on a copy of generated/openapi.json,
with this kit's hooks: every documented status of every operation, against resources the run
creates and deletes again.

  --url <base_url>        base URL including /ext-api/v1 (required)
  --key <key>             a key with full access (*); defaults to $${KEY_ENV}; with --mock, to the mock's
                          active * key (GET /__mock/keys)
  --mock                  the target is this kit's mock: 403, 429, 503 and the not-ready 409 are provoked
                          through its control API (/__mock), with faults armed in this run's own scope;
                          without it they are skipped, with the reason
  --reporter <name,...>   ${REPORTERS.join(', ')} (default cli); xunit, html and markdown write into --out
  --out <dir>             where the prepared description and report files go (default dredd-report)
  --timeout <ms>          per request, connect to last byte (default ${DEFAULT_TIMEOUT_MS}); after 3 requests in a row
                          without an answer the run sends nothing more
  --help                  this text

Exit codes: 0 every transaction passed, 1 one failed (or the server stopped answering), 2 bad flags or
unreachable target. The key is never printed: it reads $${KEY_ENV} wherever a request is shown.`;

export function parseDreddArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): DreddOptions {
  const values = parseFlags(argv, {
    url: { type: 'string' },
    key: { type: 'string' },
    mock: { type: 'boolean' },
    reporter: { type: 'string' },
    out: { type: 'string' },
    timeout: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const help = !!values.help;
  if (help) return { help, url: '', mock: false, reporters: ['cli'], out: '', timeoutMs: DEFAULT_TIMEOUT_MS };
  const url = baseUrlFlag(values.url);
  if (url.search || url.hash) throw new UsageError('--url must not carry a query or fragment');
  const key = values.key ?? (env[KEY_ENV] || undefined);
  if (values.key === '') throw new UsageError('--key must not be empty');
  if (!key && !values.mock) throw new UsageError(`--key <key> is required (or set $${KEY_ENV}; with --mock the mock's key is used)`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a key with control characters cannot be a header value
  if (key && /[\x00-\x1f\x7f]/.test(key)) throw new UsageError('--key must be one line of printable characters');
  const reporters = (values.reporter ?? 'cli')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean) as ReporterName[];
  if (!reporters.length) throw new UsageError('--reporter needs a name');
  for (const r of reporters)
    if (!REPORTERS.includes(r))
      throw new UsageError(
        `--reporter: unknown "${r}" (choose from ${REPORTERS.join(', ')}${(r as string) === 'apiary' ? '; apiary would upload the requests, key included' : ''})`,
      );
  if (values.out === '') throw new UsageError('--out must name a directory');
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout);
  if (!/^\d+$/.test(values.timeout ?? '1') || timeoutMs < 1)
    throw new UsageError(`--timeout must be a positive number of milliseconds, got "${values.timeout}"`);
  return {
    help,
    url: url.toString().replace(/\/$/, ''),
    key,
    mock: !!values.mock,
    reporters: [...new Set(reporters)],
    out: values.out ?? 'dredd-report',
    timeoutMs,
  };
}
