// What client/ imports from spec/runtime runs in browsers: no Node built-in anywhere in its import graph (the
// published client's webhook helpers and upload checks use the codec and the sniffer from here).
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The modules a file loads at run time (`import type` and `export type` load nothing). */
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b(\s+type\b)?[^'"]*?from\s+'([^']+)'/gm)]
    .filter((m) => !m[1])
    .map((m) => m[2]!);
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);

/** The spec/runtime modules client/ reaches, each with the Node built-ins it imports at run time. */
function runtimeGraphOfClient(): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    const rel = relative(ROOT, file);
    if (seen.has(rel)) return;
    const runtimeImports = importsOf(file);
    seen.set(rel, runtimeImports.filter(isNodeBuiltin));
    for (const s of runtimeImports.filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(file), s);
      if (relative(ROOT, target).startsWith('spec/runtime/')) visit(target);
    }
  };
  for (const f of readdirSync(join(ROOT, 'client')).filter((f) => f.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(f)))
    for (const s of importsOf(join(ROOT, 'client', f)).filter((s) => s.includes('spec/runtime/'))) visit(resolve(ROOT, 'client', s));
  return seen;
}

describe('spec/runtime as the client uses it', () => {
  it('imports no Node built-in in any module the client reaches', () => {
    const graph = runtimeGraphOfClient();
    expect([...graph.keys()].sort()).toEqual([
      'spec/runtime/file-types.ts',
      'spec/runtime/webhook-codec.ts',
      'spec/runtime/webhook-encode.ts',
    ]);
    expect([...graph.entries()].filter(([, builtins]) => builtins.length)).toEqual([]);
  });

  it('would notice one (the receiver imports node:http)', () => {
    expect(importsOf(join(ROOT, 'spec/runtime/webhook-receiver.ts')).filter(isNodeBuiltin)).toEqual(['node:http']);
  });
});
