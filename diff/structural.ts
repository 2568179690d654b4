// The structural half of a comparison is `redocly diff` (@redocly/cli, already the kit's linter and bundler): it walks
// both descriptions with $refs followed, reports each change under the operation that reaches it, with the pointer
// where it is written, and rates it by what it does to a client (major/minor/patch) through ~20 direction-aware rules.
// This module runs it and returns its changes as it reports them; classify.ts adds what the kit knows.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './git.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');

interface Location {
  pointer: string;
  value?: unknown;
}

/** One change of `redocly diff --format json` (report version 1), the fields this kit reads. */
export interface EngineChange {
  path: string;
  typeName: string;
  kind: 'added' | 'removed' | 'modified';
  impact: 'major' | 'minor' | 'patch';
  property?: string;
  verdicts: Array<{ ruleId: string; impact: string; message: string; location?: Location }>;
  base?: Location;
  revision?: Location;
}

export const engineName = (): string => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/@redocly/cli/package.json'), 'utf8')) as { version: string };
  return `redocly diff (@redocly/cli ${version})`;
};

const banner = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() && !/[║╔╚]/.test(l))
    .join('\n');

/** The engine's changes from `baseFile` to `headFile`; `scratch` is a folder it may write its report into. */
export function engineChanges(baseFile: string, headFile: string, scratch: string): EngineChange[] {
  const out = join(scratch, 'redocly-diff.json');
  const args = ['diff', baseFile, headFile, '--format', 'json', '--output', out, '--fail-on', 'none', '--lint-config', 'off'];
  const r = spawnSync(REDOCLY, args, { cwd: scratch, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new InputError(`redocly diff could not compare the two contracts:\n${banner(`${r.stdout}\n${r.stderr}`)}`);
  const report = JSON.parse(readFileSync(out, 'utf8')) as { reportVersion?: string; changes?: EngineChange[] };
  if (report.reportVersion !== '1' || !Array.isArray(report.changes))
    throw new Error(`redocly diff wrote a report of version ${report.reportVersion}; this kit reads version 1`);
  return report.changes;
}
