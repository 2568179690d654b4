// `npm run pack -- <dir>`: writes the three packages' tarballs into <dir> (made if missing): clinical-records-api (types,
// client, webhooks, spec), clinical-records-mock and clinical-records-conformance, each from packages/<name>.json and the
// one build in dist/ (built first when stale). Each tarball is built: installing it builds nothing and needs no dev
// dependency. Prints one line per tarball: its path, its size, and its dependencies. Refuses to pack a package whose
// version has not moved as far as its changes since the release base need (a breaking change under an unchanged major,
// diff/versions.ts); a base this clone lacks skips that check with a message.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Manifest, manifestPath, readJson, type RootPackage } from './packing/manifest.ts';
import { stagePackage } from './packing/stage.ts';
import { packGate } from '../diff/versions.ts';

const PACKAGES = ['clinical-records-api', 'clinical-records-mock', 'clinical-records-conformance'] as const;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr || r.stdout}`);
  return r.stdout;
}

async function main(argv: string[]): Promise<number> {
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    console.error('usage: npm run pack -- <dir>   (writes the three tarballs into <dir>)');
    return 2;
  }
  const gate = packGate(ROOT);
  for (const line of gate.lines) console.error(`pack: ${line}`);
  if (gate.refuse) return 1;
  const out = resolve(argv[0]!);
  mkdirSync(out, { recursive: true });
  run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build.ts'), '--if-stale'], ROOT);
  const pkg = readJson<RootPackage>(join(ROOT, 'package.json'));
  const work = mkdtempSync(join(tmpdir(), 'crc-stage-'));
  try {
    for (const name of PACKAGES) {
      const stage = join(work, name);
      const shipped = await stagePackage(ROOT, stage, readJson<Manifest>(manifestPath(ROOT, name)), pkg);
      const [packed] = JSON.parse(run('npm', ['pack', stage, '--pack-destination', out, '--json'], work)) as Array<{
        filename: string;
        size: number;
        unpackedSize: number;
      }>;
      const deps = Object.keys((shipped.dependencies as object | undefined) ?? {});
      const optional = Object.keys((shipped.optionalDependencies as object | undefined) ?? {});
      console.log(
        `${join(out, packed!.filename)}  ${(packed!.size / 1e6).toFixed(2)} MB packed, ${(packed!.unpackedSize / 1e6).toFixed(2)} MB unpacked; depends on ${deps.join(', ') || 'nothing'}${optional.length ? `; optionally (the command) on ${optional.join(', ')}` : ''}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((e: Error) => {
  console.error(`pack: ${e.message}`);
  return 1;
});
