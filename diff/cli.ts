// `npm run diff -- [<base-ref> [<head-ref>]]`: the contract's and the rule register's changes between two refs (head:
// the working tree), with the rules each touches and the bump each package needs; rendered for a terminal, a
// pull-request comment or a machine. See docs/contract.md ("Contract changes and versions").
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainModule } from '../spec/runtime/main-module.ts';
import { type Args, parseArgs, USAGE } from './args.ts';
import { writeChangelogs } from './changelog.ts';
import { compare } from './compare.ts';
import { folderTree, gitTree, InputError } from './git.ts';
import { AUDIENCES, type Report } from './model.ts';
import { renderConsole } from './render/console.ts';
import { renderMarkdown } from './render/markdown.ts';
import { checkVersions, releaseBase, type VersionVerdict } from './versions.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function render(args: Args, report: Report, verdicts?: VersionVerdict[]): string {
  // The JSON names the package that speaks for each audience, so a change's impacts read as package bumps.
  if (args.format === 'json')
    return `${JSON.stringify({ ...report, audiences: AUDIENCES, ...(verdicts ? { versions: verdicts } : {}) }, null, 2)}\n`;
  return (args.format === 'markdown' ? renderMarkdown : renderConsole)(report, verdicts);
}

/** The report, and the version verdicts when asked; `notes` collects what the user should read on stderr. */
function build(root: string, args: Args, notes: string[]): { report?: Report; verdicts?: VersionVerdict[] } {
  if (args.checkVersions) {
    const check = checkVersions(root, args.base);
    if ('skipped' in check) return notes.push(check.skipped), {};
    return check;
  }
  const base = releaseBase(root, args.base);
  if (!base) throw new InputError('no <base-ref> given, and this history has no tag and no commit with spec/openapi.yaml');
  if (!args.base) notes.push(`base: ${base.ref} (${base.how})`);
  return { report: compare(gitTree(root, base.ref), args.head ? gitTree(root, args.head) : folderTree(root)) };
}

function failed(args: Args, report: Report, verdicts?: VersionVerdict[]): string | undefined {
  if (verdicts?.some((v) => !v.ok)) return 'version check failed';
  const worst = report.changes.flatMap((c) => Object.values(c.impacts));
  if (args.failOn === 'breaking' && worst.includes('major')) return 'breaking changes (--fail-on breaking)';
  if (args.failOn === 'any' && worst.some((b) => b !== 'none')) return 'changes that need a bump (--fail-on any)';
  return undefined;
}

/** Runs the command over the repository at `root` (this kit's own by default); returns the exit code. */
export function main(argv: string[], root = ROOT): number {
  if (argv.includes('--help') || argv.includes('-h')) return console.log(USAGE), 0;
  const notes: string[] = [];
  try {
    const args = parseArgs(argv);
    const { report, verdicts } = build(root, args, notes);
    for (const n of notes) console.error(n);
    if (!report) return 0;
    if (args.changelog) for (const file of writeChangelogs(root, report)) console.error(`wrote ${file}`);
    const text = render(args, report, verdicts);
    if (args.output) writeFileSync(args.output, text);
    else process.stdout.write(text);
    const why = failed(args, report, verdicts);
    if (why) console.error(`diff: ${why}`);
    return why ? 1 : 0;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.error(`diff: ${e.message}\n\n${USAGE}`);
    return 2;
  }
}

if (isMainModule(import.meta.url)) process.exitCode = main(process.argv.slice(2));
