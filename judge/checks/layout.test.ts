// The judge's response checks as the suite's checks are laid out: one file per rule area, each check the exported
// function of its name with its area's rule, and nothing else exported.
import { describe, expect, it } from 'vitest';
import * as err from './err.ts';
import * as gen from './gen.ts';
import { responseChecks } from './index.ts';
import * as rate from './rate.ts';

const files: Record<string, Record<string, unknown> & { responseChecks: typeof responseChecks }> = { err, gen, rate };

describe('the response checks of judge/checks', () => {
  it('each is the exported function of its name in its rule area’s file, which exports nothing else', () => {
    const misplaced: string[] = [];
    for (const [area, mod] of Object.entries(files)) {
      for (const rc of mod.responseChecks) {
        if (rc.rule.split('-')[0] !== area.toUpperCase()) misplaced.push(`${rc.name} (${rc.rule}) in ${area}.ts`);
        if (mod[rc.name] !== rc.inspect) misplaced.push(`${rc.name}: not the exported function of ${area}.ts`);
      }
      const named = new Set(['responseChecks', ...mod.responseChecks.map((c) => c.name)]);
      for (const name of Object.keys(mod)) if (!named.has(name)) misplaced.push(`${area}.ts exports ${name}`);
    }
    expect(misplaced).toEqual([]);
  });

  it('index.ts lists every one of them once', () => {
    const listed = responseChecks.map((c) => c.name);
    expect(listed.sort()).toEqual(
      Object.values(files)
        .flatMap((m) => m.responseChecks.map((c) => c.name))
        .sort(),
    );
    expect(new Set(listed).size).toBe(listed.length);
  });
});
