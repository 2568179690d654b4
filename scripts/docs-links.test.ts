// Every relative link of README.md and docs/*.md resolves: the file exists inside the repository (a clone has
// nothing beside it), and an anchor names a heading of its target, by GitHub's slug rules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Fenced blocks (also indented, inside a list item) emptied, their lines kept so that line numbers hold. */
const withoutFences = (md: string) =>
  md.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ''));

/** Fenced blocks and code spans hold text, not links or headings. */
const withoutCode = (md: string) => withoutFences(md).replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchor: lowercase, punctuation other than '-' and '_' dropped, each space a '-'. */
function slug(heading: string): string {
  const text = heading.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text; a repeated heading gets -1, -2, ... as on GitHub. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(md).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every link target of a Markdown text, with the line it stands on. */
function links(md: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  withoutCode(md)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line: i + 1 });
    });
  return out;
}

/** Problems with the links of one file: a missing file, a path outside the repository, an unknown anchor. */
function brokenLinks(file: string, md: string, root: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const { target, line } of links(md)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ... are not ours to resolve
    const [path = '', anchor] = target.split('#', 2);
    const where = `${relative(root, file)}:${line} → ${target}`;
    let to: string;
    try {
      to = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    } catch {
      problems.push(`${where}: malformed percent-encoding`);
      continue;
    }
    if (relative(root, to).startsWith('..')) problems.push(`${where}: outside the repository`);
    else if (read(to) === undefined) problems.push(`${where}: no such file`);
    else if (anchor !== undefined && to.endsWith('.md') && !anchors(read(to)!).has(anchor))
      problems.push(`${where}: no heading with that anchor in ${relative(root, to)}`);
  }
  return problems;
}

const readIfFile = (path: string) => (existsSync(path) ? (path.endsWith('.md') ? readFileSync(path, 'utf8') : '') : undefined);

describe('documentation links', () => {
  const files = [
    join(ROOT, 'README.md'),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, 'docs', f)),
  ];

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s: every relative link and anchor resolves inside the repository', (_name, file) => {
    expect(brokenLinks(file, readFileSync(file, 'utf8'), ROOT, readIfFile)).toEqual([]);
  });

  it('the README links every document of docs/', () => {
    const targets = new Set(links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target.split('#')[0]));
    const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(docs.filter((f) => !targets.has(`docs/${f}`))).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(slug("The mock: a frontend developer's first five minutes")).toBe('the-mock-a-frontend-developers-first-five-minutes');
    expect(slug('The default seed (`mock/seed/default.json`)')).toBe('the-default-seed-mockseeddefaultjson');
    expect(slug('A second opinion: Dredd')).toBe('a-second-opinion-dredd');
    expect(slug('snake_case and --flags')).toBe('snake_case-and---flags');
    expect([...anchors('# Notes\n\n```\n# not a heading\n```\n## Notes\n')]).toEqual(['notes', 'notes-1']);
    expect([...anchors('1. step\n   ```sh\n# a shell comment\n   ```\n')]).toEqual([]);
  });

  it('reports a missing file, a path outside the repository and an unknown anchor, not links in code', () => {
    const root = '/repo';
    const files: Record<string, string> = { '/repo/docs/a.md': '# Alpha\n', '/repo/README.md': '' };
    const md = [
      '[ok](docs/a.md#alpha) [self](#top) [web](https://example.org/x#y)',
      '[gone](docs/b.md) [out](../shared/source/doc.md) [bad anchor](docs/a.md#beta)',
      '`[in code](docs/nothing.md)`',
      '```',
      '[in a block](docs/nothing.md)',
      '```',
      '1. a step',
      '   ```sh',
      '   [in an indented block](docs/nothing.md)',
      '   ```',
      '# Top',
      '[after the blocks](docs/c.md) [broken encoding](docs/%E0.md)',
    ].join('\n');
    files['/repo/README.md'] = md;
    expect(brokenLinks('/repo/README.md', md, root, (p) => files[p])).toEqual([
      'README.md:2 → docs/b.md: no such file',
      'README.md:2 → ../shared/source/doc.md: outside the repository',
      'README.md:2 → docs/a.md#beta: no heading with that anchor in docs/a.md',
      'README.md:12 → docs/c.md: no such file',
      'README.md:12 → docs/%E0.md: malformed percent-encoding',
    ]);
  });
});
