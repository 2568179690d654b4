// The parent side of `npm run dredd`: checks the target answers, prepares the copy of the description, runs
// dredd-process.ts with the key in its environment (never on a command line), passes its output through the
// redactor, and redacts the report files it wrote. The exit code is the Dredd process's.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redactor } from '../conformance/redact.ts';
import { KEY_ENV, REPORT_FILES, type DreddOptions } from './args.ts';
import { writePreparedBundle } from './bundle.ts';
import type { ProcessInput } from './dredd-process.ts';

export class Unreachable extends Error {}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Any HTTP answer proves the target is there; a refused or timed-out connection does not. With --mock, /__mock must answer. */
async function checkTarget(url: string, mock: boolean, timeoutMs = 10_000): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.arrayBuffer());
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Unreachable(`${url} is unreachable: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!mock) return;
  const health = `${new URL(url).origin}/__mock/health`;
  const status = await fetch(health, { signal: AbortSignal.timeout(timeoutMs) }).then(
    (r) => r.status,
    () => 0,
  );
  if (status !== 200) throw new Unreachable(`--mock: ${health} answered ${status || 'nothing'}: the target is not this kit's mock`);
}

/** Passes text through the redactor line by line, so a key split across two chunks is still caught. */
function redactingWriter(redactor: Redactor, write: (s: string) => void): { push(chunk: Buffer): void; end(): void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk.toString('utf8');
      const cut = pending.lastIndexOf('\n');
      if (cut < 0) return;
      write(redactor.redact(pending.slice(0, cut + 1)));
      pending = pending.slice(cut + 1);
    },
    end() {
      if (pending) write(redactor.redact(pending));
      pending = '';
    },
  };
}

export async function runDredd(
  opts: DreddOptions,
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  await checkTarget(opts.url, opts.mock);
  const outDir = resolve(opts.out);
  const input: ProcessInput = {
    url: opts.url,
    bundle: writePreparedBundle(outDir),
    mock: opts.mock,
    reporters: opts.reporters,
    out: outDir,
  };
  const redactor = new Redactor();
  redactor.add(opts.key, `$${KEY_ENV}`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./dredd-process.ts', import.meta.url)), JSON.stringify(input)],
    {
      cwd: ROOT,
      env: { ...process.env, [KEY_ENV]: opts.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stdout = redactingWriter(redactor, out);
  const stderr = redactingWriter(redactor, err);
  child.stdout.on('data', (c: Buffer) => stdout.push(c));
  child.stderr.on('data', (c: Buffer) => stderr.push(c));
  // Ctrl-C goes to the whole process group: the Dredd process cleans up and exits 130; this one waits for it.
  const onSigint = () => undefined;
  process.on('SIGINT', onSigint);
  const code = await new Promise<number>((done) => child.on('close', (c, signal) => done(c ?? (signal === 'SIGINT' ? 130 : 1)))).finally(
    () => process.off('SIGINT', onSigint),
  );
  stdout.end();
  stderr.end();
  // Dredd's file reporters write the requests they show; the key never stays in them.
  for (const name of Object.values(REPORT_FILES)) {
    const file = resolve(outDir, name);
    if (opts.reporters.some((r) => REPORT_FILES[r] === name) && existsSync(file))
      writeFileSync(file, redactor.redact(readFileSync(file, 'utf8')));
  }
  return code;
}
