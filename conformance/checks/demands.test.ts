// Every demand a check makes is traced to the document (issue 39, item 6): each `ctx.expect(cond, { ... })` in
// conformance/checks carries `says`, the source document's own words (verbatim, found here in the document), or
// `kit: <why>` where the honest answer is the kit's choice, which only a check of an assumed rule may make. Read from
// the code itself, so a new demand without words fails here before it can fail a server the document allows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../spec/runtime/rules.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const CHECKS = join(ROOT, 'conformance/checks');
const DOCUMENT = readFileSync(new URL('../../../shared/source/clinical-records-api.md', import.meta.url), 'utf8');
/** Quotes are compared with runs of spaces as one and without the document's code marks (`...`). */
const norm = (s: string) => s.replaceAll('`', '').replace(/\s+/g, ' ').trim();
const DOC = norm(DOCUMENT);
const KIT = /^kit: \S/;
const provenance = new Map(loadRules().map((r) => [r.id, r.provenance]));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

interface Demand {
  where: string;
  /** The registered check whose body makes the demand (undefined in a shared helper). */
  check?: string;
  /** The `says` initializer, when the demand has one. */
  says?: ts.Expression;
}

/** The name of the top-level function (declaration or const) that holds `node`. */
function topFunction(node: ts.Node): string | undefined {
  let name: string | undefined;
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) name = n.name.text;
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isFunctionLike(n.initializer))
      name = n.name.text;
  }
  return name;
}

const prop = (o: ts.ObjectLiteralExpression, name: string) =>
  o.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name);

/** Reads one file: its demands, every `says` literal anywhere, and its checks' effective provenance. */
function readFile(file: string) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const demands: Demand[] = [];
  const quotes: Array<{ where: string; text: string; check?: string }> = [];
  const checks = new Map<string, string>();
  const where = (n: ts.Node) => `${relative(ROOT, file)}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'expect' && n.arguments.length === 2) {
        const e = n.arguments[1]!;
        demands.push({ where: where(n), check: topFunction(n), says: ts.isObjectLiteralExpression(e) ? prop(e, 'says')?.initializer : e });
      }
      // check(fn, { rule, provenance? }): the check's effective provenance.
      if (ts.isIdentifier(callee) && callee.text === 'check' && n.arguments.length === 2) {
        const [fn, meta] = n.arguments;
        if (fn && ts.isIdentifier(fn) && meta && ts.isObjectLiteralExpression(meta)) {
          const rule = prop(meta, 'rule')?.initializer;
          const own = prop(meta, 'provenance')?.initializer;
          const p = own && ts.isStringLiteral(own) ? own.text : rule && ts.isStringLiteral(rule) ? provenance.get(rule.text) : undefined;
          checks.set(fn.text, p ?? 'unknown');
        }
      }
    }
    if (ts.isPropertyAssignment(n) && n.name.getText() === 'says') {
      const lits = ts.isArrayLiteralExpression(n.initializer) ? [...n.initializer.elements] : [n.initializer];
      for (const l of lits)
        if (ts.isStringLiteral(l) || ts.isNoSubstitutionTemplateLiteral(l))
          quotes.push({ where: where(l), text: l.text, check: topFunction(l) });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return { demands, quotes, checks };
}

const files = sourceFiles(CHECKS).map(readFile);
const checkProvenance = new Map(files.flatMap((f) => [...f.checks]));
const allDemands = files.flatMap((f) => f.demands);
const allQuotes = files.flatMap((f) => f.quotes);

describe("the checks' demands", () => {
  it('are found in conformance/checks (the scan reads the code)', () => {
    expect(allDemands.length).toBeGreaterThan(200);
    expect(checkProvenance.size).toBeGreaterThan(100);
  });

  it('each carry the document words they rest on (says)', () => {
    const without = allDemands.filter((d) => !d.says).map((d) => `${d.where} (${d.check ?? 'shared helper'})`);
    expect(without).toEqual([]);
  });

  it("quote the document verbatim, or mark the kit's reading", () => {
    const notFound = allQuotes.filter((q) => !KIT.test(q.text) && !DOC.includes(norm(q.text))).map((q) => `${q.where}: "${q.text}"`);
    expect(notFound).toEqual([]);
  });

  it("make the kit's reading a demand only in checks of assumed rules", () => {
    const misplaced = allQuotes
      .filter((q) => KIT.test(q.text) && (!q.check || checkProvenance.get(q.check) !== 'assumed'))
      .map((q) => `${q.where} (${q.check ?? 'shared helper'}): "${q.text}"`);
    expect(misplaced).toEqual([]);
  });
});
