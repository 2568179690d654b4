// --state recovery at start: a torn or blank journal tail is cut before anything is appended onto it, orphan blob
// files are removed, a blob is checked against its size and digest, and a damaged line in the middle refuses to start
// with the line and commands that work.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError } from './journal.ts';
import { openStateFile } from './state-file.ts';
import { createStore } from './store.ts';

let dir: string;
let state: string;
let warnings: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-'));
  state = join(dir, 'state.jsonl');
  warnings = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => {
  const warn = (m: string) => warnings.push(m);
  return createStore({ state: openStateFile(state, warn), warn });
};
type Patient = { id: string; name: string };
const names = (s: ReturnType<typeof open>) =>
  s
    .collection<Patient>('patients')
    .all('org-1')
    .map((p) => p.name);

/** Writes rows through a store, as acknowledged writes, and closes it. */
function acknowledged(...rows: string[]) {
  const s = open();
  for (const name of rows) s.collection<Patient>('patients').insert('org-1', { id: `id-${name}`, name });
  s.close();
}

describe('a torn or blank journal tail', () => {
  it('is cut at start, so the next write is not appended onto it and every acknowledged row survives the restart after', () => {
    acknowledged('a', 'b');
    const intact = statSync(state).size;
    const torn = '{"c":"patients","o":"put","g":"org-1","r":{"id":"id-torn","na';
    appendFileSync(state, torn); // kill -9 mid-write
    const s = open();
    expect(names(s)).toEqual(['a', 'b']);
    expect(statSync(state).size).toBe(intact);
    expect(warnings).toEqual([
      expect.stringContaining(
        `cut ${torn.length} bytes at byte offset ${intact}, a torn last line [${torn}]. Nothing acknowledged was lost`,
      ),
    ]);
    s.collection<Patient>('patients').insert('org-1', { id: 'id-c', name: 'c' });
    s.close();
    const again = open();
    expect(names(again)).toEqual(['a', 'b', 'c']);
    again.close();
    expect(warnings).toHaveLength(1);
  });

  it('trailing blank lines are cut the same way', () => {
    acknowledged('a');
    const intact = statSync(state).size;
    appendFileSync(state, '\n \r\n');
    const s = open();
    expect(warnings).toEqual([expect.stringContaining(`cut 4 bytes at byte offset ${intact}, trailing blank lines`)]);
    s.collection<Patient>('patients').insert('org-1', { id: 'id-b', name: 'b' });
    s.close();
    expect(names(open())).toEqual(['a', 'b']);
  });

  it('a file that is only a torn line starts empty', () => {
    writeFileSync(state, '{"c":"pat');
    const s = open();
    expect(s.restored).toBe(false);
    expect(statSync(state).size).toBe(0);
    s.close();
  });
});

describe('a damaged line in the middle', () => {
  const setup = () => {
    acknowledged('a', 'b');
    const offset = statSync(state).size;
    appendFileSync(state, 'not json\n');
    appendFileSync(state, `${JSON.stringify({ c: 'patients', o: 'put', g: 'org-1', r: { id: 'id-c', name: 'c' } })}\n`);
    return { offset, before: readFileSync(state) };
  };

  it('refuses to start, names the line and byte offset, and leaves the file as it was', () => {
    const { offset, before } = setup();
    let err: unknown;
    try {
      open();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StateFileError);
    expect((err as Error).message).toContain(`damaged at line 3 (byte offset ${offset}); lines 1 to 2 are intact, 1 more after it.`);
    expect(readFileSync(state)).toEqual(before);
  });

  it.each([
    ['keep only what precedes line 3', ['a', 'b']],
    ['drop line 3 only', ['a', 'b', 'c']],
    ['start from the seed', []],
  ])('the way out "%s" is a command that works', (label, rows) => {
    setup();
    const message = (() => {
      try {
        open();
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('no error');
    })();
    const command = message
      .split('\n')
      .find((l) => l.trim().startsWith(label))!
      .split(':  ')[1]!
      .trim();
    execFileSync('sh', ['-c', command], { cwd: dir });
    expect(existsSync(state) ? names(open()) : []).toEqual(rows);
  });
});

describe('blob files at start', () => {
  it("removes a .tmp left by a write cut short and bytes no row owns; keeps the rows' blobs", () => {
    const s = open();
    s.collection<Patient>('documents').insert('org-1', { id: 'doc-1', name: 'kept' });
    s.blobs.put('doc-1', new Uint8Array([1, 2, 3]));
    s.close();
    const blobDir = `${state}.blobs`;
    writeFileSync(join(blobDir, 'doc-2.tmp'), 'half a file');
    writeFileSync(join(blobDir, 'doc-3'), 'stored before its row, then kill -9');
    const again = open();
    expect(readdirSync(blobDir).sort()).toEqual(['doc-1', 'doc-1.sha256']);
    expect(again.blobs.get('doc-1')).toEqual(new Uint8Array([1, 2, 3]));
    expect(warnings).toEqual([expect.stringMatching(/removed 2 orphan blob file\(s\).*doc-2\.tmp/)]);
    again.close();
  });

  it('verify: a blob as written passes; one missing, cut short or changed is named; one written without a digest is checked by size', () => {
    const s = open();
    const blobDir = `${state}.blobs`;
    for (const id of ['a', 'b', 'c', 'd', 'e']) s.blobs.put(id, new Uint8Array([1, 2, 3, 4]));
    rmSync(join(blobDir, 'b'));
    writeFileSync(join(blobDir, 'c'), new Uint8Array([1, 2]));
    writeFileSync(join(blobDir, 'd'), new Uint8Array([1, 2, 3, 5]));
    rmSync(join(blobDir, 'e.sha256'));
    writeFileSync(join(blobDir, 'e'), new Uint8Array([9, 9, 9, 9]));
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => s.blobs.verify(id, 4))).toEqual([
      undefined,
      { kind: 'missing' },
      { kind: 'size', bytes: 2 },
      { kind: 'digest' },
      undefined,
    ]);
    s.close();
  });
});
