// The parent side of `npm run dredd`: checks --out and that the target answers (with --mock: that it is the mock,
// and takes the key from it when none is given), prepares the copy of the description in a private folder, runs
// dredd-process.ts with the key in its environment (never on a command line), passes its output on redacted and with
// control characters escaped, copies the report files it wrote into --out made safe (report-files.ts), and makes
// sure the run ends with a verdict line even when the Dredd process did not print one. The exit code is the Dredd
// process's (1 if it ended without its verdict).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveKeys } from '../conformance/run/keys.ts';
import { KEY_ENV, REPORT_FILES, type DreddOptions } from './args.ts';
import { PREPARED_NAME, writePreparedBundle } from './bundle.ts';
import { safeWriter } from './console.ts';
import { GuardedMockControl } from './control-api.ts';
import { ExchangeError, Guard } from './guard.ts';
import { prepareOutDir, writeInto } from './out-dir.ts';
import { type ProcessInput, VERDICT_PREFIX } from './process-input.ts';
import { publishReports } from './report-files.ts';

export class Unreachable extends Error {}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The Dredd process's old-space limit. A run needs about 100 MB; each answer near the 10 MB read bound leaves some
 * 50 MB of garbage (Dredd and Gavel copy and parse it), which V8's default limit (a quarter of RAM) lets pile up to
 * ~500 MB before collecting. A limit makes it collect sooner: the same run stays near 370 MB.
 */
const HEAP_MB = 512;

/** Any HTTP answer proves the target is there (an oversized one too); a refused or silent connection does not. */
async function checkTarget(guard: Guard, url: string, control: GuardedMockControl | undefined): Promise<void> {
  try {
    await guard.send({ method: 'GET', url });
  } catch (e) {
    if (!(e instanceof ExchangeError && e.kind === 'too-large')) throw new Unreachable(`${url} is unreachable: ${(e as Error).message}`);
  }
  if (!control) return;
  const status = await control.call('GET', '/health').then(
    (r) => r.status,
    () => 0,
  );
  if (status !== 200)
    throw new Unreachable(`--mock: ${control.url}/health answered ${status || 'nothing'}: the target is not this kit's mock`);
}

/** The run's key: --key, else (with --mock) the mock's active `*` key, as the suite takes it. Every mock key is a secret. */
async function runKey(opts: DreddOptions, guard: Guard, control: GuardedMockControl | undefined): Promise<string> {
  if (!control) return opts.key!;
  try {
    const key = (await resolveKeys({ key: opts.key, scopedKeys: [] }, control)).main.value;
    guard.secrets.add(key, `$${KEY_ENV}`);
    for (const k of await control.keys()) guard.secrets.add(k.key, '$CLINICAL_RECORDS_SCOPED_KEY');
    return key;
  } catch (e) {
    throw new Unreachable(`--mock: ${(e as Error).message}`);
  }
}

export async function runDredd(
  opts: DreddOptions,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  const outDir = prepareOutDir(opts.out, [PREPARED_NAME, ...opts.reporters.map((r) => REPORT_FILES[r]).filter((n) => n !== undefined)]);
  const guard = new Guard({ timeoutMs: opts.timeoutMs });
  guard.secrets.add(opts.key, `$${KEY_ENV}`);
  const control = opts.mock ? new GuardedMockControl(opts.url, guard) : undefined;
  await checkTarget(guard, opts.url, control);
  const key = await runKey(opts, guard, control);
  const workDir = mkdtempSync(join(tmpdir(), 'dredd-run-'));
  try {
    const bundle = writePreparedBundle(workDir);
    writeInto(outDir, PREPARED_NAME, readFileSync(bundle));
    const input: ProcessInput = { url: opts.url, bundle, mock: opts.mock, reporters: opts.reporters, workDir, timeoutMs: opts.timeoutMs };
    let verdictSeen = false;
    const stdout = safeWriter(guard.secrets, (s) => {
      verdictSeen ||= s.includes(VERDICT_PREFIX);
      out(s);
    });
    const stderr = safeWriter(guard.secrets, err);
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_MB}`,
        '--import',
        'tsx',
        fileURLToPath(new URL('./dredd-process.ts', import.meta.url)),
        JSON.stringify(input),
      ],
      { cwd: ROOT, env: { ...process.env, [KEY_ENV]: key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    // Ctrl-C goes to the whole process group: the Dredd process cleans up and exits 130; this one waits for it.
    const onSigint = () => undefined;
    process.on('SIGINT', onSigint);
    const ended = await new Promise<{ code: number | null; signal: string | null; error?: Error }>((done) => {
      child.on('error', (error) => done({ code: null, signal: null, error }));
      child.on('close', (code, signal) => done({ code, signal }));
    }).finally(() => process.off('SIGINT', onSigint));
    stdout.end();
    stderr.end();
    const missing = publishReports(workDir, outDir, opts.reporters, guard.secrets);
    if (missing.length) err(`dredd: not written (the Dredd process ended before its reporters did): ${missing.join(', ')}\n`);
    if (verdictSeen) return ended.code ?? 1;
    const how = ended.error
      ? `could not start (${ended.error.message})`
      : `ended (${ended.signal ?? `exit ${ended.code}`}) before its summary`;
    const code = ended.signal === 'SIGINT' ? 130 : ended.code || 1;
    out(`${VERDICT_PREFIX}failed: the Dredd process ${how} (exit ${code})\n`);
    return code;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
