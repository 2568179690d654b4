// `npm run dredd -- --url <base_url> --key <key> [--mock] [--reporter <r>] [--out <dir>]`: exit 0 every transaction
// passed, 1 one failed, 2 bad flags or unreachable target.
import { parseDreddArgs, UsageError, USAGE } from './args.ts';
import { runDredd, Unreachable } from './runner.ts';

type Write = (s: string) => void;

export async function main(
  argv: string[],
  out: Write = (s) => process.stdout.write(s),
  err: Write = (s) => process.stderr.write(s),
): Promise<number> {
  try {
    const opts = parseDreddArgs(argv);
    if (opts.help) {
      out(`${USAGE}\n`);
      return 0;
    }
    return await runDredd(opts, out, err);
  } catch (e) {
    if (e instanceof UsageError || e instanceof Unreachable) {
      err(`dredd: ${e.message}${e instanceof UsageError ? '\nRun with --help for usage.' : ''}\n`);
      return 2;
    }
    throw e;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
