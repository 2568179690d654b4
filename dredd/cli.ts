// `npm run dredd -- --url <base_url> --key <key> [--mock] [--reporter <r>] [--out <dir>] [--timeout <ms>]`: exit 0
// every transaction passed, 1 one failed (or the server stopped answering), 2 bad flags or unreachable target.
import { parseDreddArgs, UsageError, USAGE } from './args.ts';
import { exitWhenFlushed } from './exit.ts';
import { VERDICT_PREFIX } from './process-input.ts';
import { runDredd, Unreachable } from './runner.ts';
import { escapeControls } from './sanitize.ts';
import { isMainModule } from '../spec/runtime/main-module.ts';

type Write = (s: string) => void;

export async function main(
  argv: string[],
  out: Write = (s) => process.stdout.write(s),
  err: Write = (s) => process.stderr.write(s),
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const opts = parseDreddArgs(argv, env);
    if (opts.help) {
      out(`${USAGE}\n`);
      return 0;
    }
    return await runDredd(opts, out, err);
  } catch (e) {
    if (e instanceof UsageError || e instanceof Unreachable) {
      err(`dredd: ${escapeControls(e.message)}${e instanceof UsageError ? '\nRun with --help for usage.' : ''}\n`);
      return 2;
    }
    // Whatever went wrong, the run still ends with its verdict.
    const message = escapeControls((e as Error).message);
    err(`dredd: ${message}\n`);
    out(`${VERDICT_PREFIX}failed: ${message} (exit 1)\n`);
    return 1;
  }
}

if (isMainModule(import.meta.url)) {
  main(process.argv.slice(2)).then(exitWhenFlushed);
}
