// The chunked seed reader gives exactly what JSON.parse gives, whatever the chunk boundaries, and fails as it fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonFile } from './read-json.ts';

const dir = mkdtempSync(join(tmpdir(), 'read-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('readJsonFile', () => {
  const tricky =
    ' { "a" : [ ] , "b":[1, "x\\"]", {"c":[1,{"d":"}"}]}, null, true, -1.5e3 ] , "e" : "s\\\\", "é": "中", "g": {"h": []}, "__proto__": 1 } ';
  for (const chunk of [1, 2, 3, 7, 64, 1 << 20])
    it(`matches JSON.parse with ${chunk}-byte chunks`, () => {
      const got = readJsonFile(file('t.json', tricky), chunk);
      expect(got).toStrictEqual(JSON.parse(tricky));
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    });
  it('reads the default seed as JSON.parse does', () => {
    const p = new URL('./default.json', import.meta.url);
    expect(readJsonFile(p, 4096)).toStrictEqual(JSON.parse(readFileSync(p, 'utf8')));
  });
  for (const bad of ['{"a":1,}', '{"a":[1,]}', '{"a":1} x', '{"a": tru}', '{"a":', ''])
    it(`fails on ${JSON.stringify(bad)} with JSON.parse's error`, () => {
      const err = (() => {
        try {
          JSON.parse(bad);
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(() => readJsonFile(file('bad.json', bad), 3)).toThrow(err!);
    });
  it('a JSON value that is not an object is parsed whole', () => {
    expect(readJsonFile(file('arr.json', '[1,2]'))).toEqual([1, 2]);
  });
});
