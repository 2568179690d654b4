// One comparison: two trees (refs or folders) in, one `Report` out: the contract's structural changes (the engine,
// then the kit's classification) followed by the rule register's changes, and the bump each package needs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Json } from '../spec/runtime/json-pointer.ts';
import { classify } from './classify.ts';
import { extensionChanges, forEngine } from './extensions.ts';
import { InputError, type Tree } from './git.ts';
import { type PackageName, PACKAGES, packageNeeds, type Report, type Side } from './model.ts';
import { readRegister, registerChanges } from './register.ts';
import { reachOf } from './reach.ts';
import { ruleIndex } from './rule-map.ts';
import { engineChanges, engineName } from './structural.ts';

function readSpec(tree: Tree): Json {
  const text = tree.read('spec/openapi.yaml');
  if (text === undefined) throw new InputError(`${tree.label} has no spec/openapi.yaml`);
  let doc: Json;
  try {
    doc = parse(text) as Json;
  } catch (e) {
    throw new InputError(`${tree.label}: spec/openapi.yaml does not parse: ${(e as Error).message.split('\n')[0]}`);
  }
  // The contract is one file; a reference to another file would not resolve once the file is copied out.
  const outside = /"\$ref":"(?!#)([^"]*)"/.exec(JSON.stringify(doc));
  if (outside) throw new InputError(`${tree.label}: spec/openapi.yaml refers to another file (${outside[1]}); npm run diff reads one file`);
  return doc;
}

/** Each package's version at a tree: its packages/<name>.json's, else the repository's package.json's, else 0.0.0. */
function versionsAt(tree: Tree): Record<PackageName, string> {
  const versionIn = (path: string): string | undefined => {
    const text = tree.read(path);
    if (text === undefined) return undefined;
    try {
      const v = (JSON.parse(text) as { version?: unknown }).version;
      return typeof v === 'string' ? v : undefined;
    } catch {
      throw new InputError(`${tree.label}: ${path} is not valid JSON`);
    }
  };
  const fallback = versionIn('package.json') ?? '0.0.0';
  return Object.fromEntries(PACKAGES.map((p) => [p, versionIn(`packages/${p}.json`) ?? fallback])) as Record<PackageName, string>;
}

const side = (tree: Tree): Side => ({ ref: tree.label, ...(tree.commit ? { commit: tree.commit } : {}), versions: versionsAt(tree) });

export function compare(base: Tree, head: Tree): Report {
  const specs = { base: readSpec(base), head: readSpec(head) };
  const docs = { ...specs, reach: { base: reachOf(specs.base), head: reachOf(specs.head) } };
  const registers = [
    readRegister(base.read('spec/rules.yaml'), base.label),
    readRegister(head.read('spec/rules.yaml'), head.label),
  ] as const;
  const rules = ruleIndex(...registers);
  const scratch = mkdtempSync(join(tmpdir(), 'crc-diff-'));
  try {
    const [baseFile, headFile] = [join(scratch, 'base.json'), join(scratch, 'head.json')];
    writeFileSync(baseFile, JSON.stringify(forEngine(docs.base)));
    writeFileSync(headFile, JSON.stringify(forEngine(docs.head)));
    const structural = [...engineChanges(baseFile, headFile, scratch), ...extensionChanges(docs.base, docs.head)];
    const changes = [...structural.map((c) => classify(c, docs, rules)), ...registerChanges(...registers)];
    return { base: side(base), head: side(head), engine: engineName(), changes, needs: packageNeeds(changes) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
