// `npm run diff` arguments: [<base-ref> [<head-ref>]] and the flags, each checked with a clear message.
import { InputError } from './git.ts';

export const USAGE = `usage: npm run diff -- [<base-ref> [<head-ref>]] [options]
  <base-ref>        git ref to compare from (default: the newest tag, else the earliest commit with spec/openapi.yaml)
  <head-ref>        git ref to compare to (default: the working tree)
  --format F        console (default), markdown or json
  --output FILE     write the rendering to FILE instead of standard output
  --fail-on L       exit 1 when a change needs a major bump (breaking) or any bump (any)
  --check-versions  exit 1 unless each package's version moved as far as its changes need (head: the working tree)
  --changelog       write each package's changelog entry for its version (packages/<name>.CHANGELOG.md)
exit: 0 fine, 1 a --fail-on or version check failed, 2 bad input`;

export interface Args {
  base?: string;
  head?: string;
  format: 'console' | 'markdown' | 'json';
  output?: string;
  failOn?: 'breaking' | 'any';
  checkVersions: boolean;
  changelog: boolean;
}

const FORMATS = ['console', 'markdown', 'json'] as const;
const FAIL_ON = ['breaking', 'any'] as const;

function choice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined || !(allowed as readonly string[]).includes(value))
    throw new InputError(`${flag} takes one of ${allowed.join(', ')}${value === undefined ? '' : `, got ${JSON.stringify(value)}`}`);
  return value as T;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = { format: 'console', checkVersions: false, changelog: false };
  const refs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--format') args.format = choice('--format', argv[++i], FORMATS);
    else if (a === '--fail-on') args.failOn = choice('--fail-on', argv[++i], FAIL_ON);
    else if (a === '--output') {
      const file = argv[++i];
      if (!file || file.startsWith('--')) throw new InputError('--output takes a file name');
      args.output = file;
    } else if (a === '--check-versions') args.checkVersions = true;
    else if (a === '--changelog') args.changelog = true;
    else if (a.startsWith('-')) throw new InputError(`unknown option ${a}`);
    else refs.push(a);
  }
  if (refs.length > 2) throw new InputError(`at most two refs (base and head), got ${refs.length}: ${refs.join(' ')}`);
  [args.base, args.head] = refs;
  if (args.head && (args.checkVersions || args.changelog))
    throw new InputError('--check-versions and --changelog judge the working tree: give no <head-ref>');
  return args;
}
