// A function's own lines: the lines of code (not blank, not only a comment) of its span that are not wholly inside a
// function defined within it. A callback passed inline, a helper declared inside: each is counted as a function of its
// own, so a long procedure cannot hide in its closures, and a short one is not blamed for them.
import ts from 'typescript';

export interface FunctionSize {
  /** `file:line name` of the function's first line. */
  where: string;
  own: number;
}

const isFunction = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** What a reader calls the function: its own name, the variable or property it is assigned to, or the call it is passed to. */
function nameOf(n: ts.FunctionLikeDeclaration): string {
  if (n.name) return n.name.getText();
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText();
  if (ts.isCallExpression(p)) return `${p.expression.getText().slice(0, 40)}(…)`;
  return '(anonymous)';
}

/** Functions defined directly inside `n` (not inside those). */
function innerFunctions(n: ts.Node): ts.Node[] {
  const found: ts.Node[] = [];
  // forEachChild stops at the first truthy return: `walk` returns nothing.
  const walk = (c: ts.Node): void => {
    if (isFunction(c)) found.push(c);
    else ts.forEachChild(c, walk);
  };
  ts.forEachChild(n, walk);
  return found;
}

const isCode = (line: string) => {
  const t = line.trim();
  return t !== '' && !t.startsWith('//') && !t.startsWith('/*') && !t.startsWith('*');
};

/** Every function of one source text with its own line count. */
export function functionSizes(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const lineStart = source.getLineStarts();
  const sizes: FunctionSize[] = [];
  const visit = (n: ts.Node) => {
    if (isFunction(n)) {
      const inner = innerFunctions(n);
      const first = source.getLineAndCharacterOfPosition(n.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(n.getEnd()).line;
      let own = 0;
      for (let i = first; i <= last; i++) {
        const line = lines[i] ?? '';
        if (!isCode(line)) continue;
        const from = lineStart[i]! + line.search(/\S/);
        // A closing `});` or `},` ends the inner function; its punctuation alone does not make the line the outer's.
        const to = lineStart[i]! + line.trimEnd().replace(/[;,)\]]+$/, '').length;
        if (!inner.some((f) => f.getStart() <= from && f.getEnd() >= to)) own++;
      }
      sizes.push({ where: `${file}:${first + 1} ${nameOf(n)}`, own });
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return sizes;
}
