// Keys never reach a report, not even in part: a body cut in the middle of an echoed key leaves a prefix (24 or 31
// of 36 characters), and a cut from the other side a suffix; both are replaced wherever they are, in every report.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../run/model.ts';
import { Redactor } from './redact.ts';
import { renderConsole } from './console.ts';
import { prepareOutDir } from './out-dir.ts';
import { writeReports } from './write.ts';
import { runReport } from '../testing/run-report.ts';

const KEY = 'crk_full_access_0123456789abcdef0123';
const OTHER = 'crk_full_access_fedcba9876543210fedc';
const redactor = new Redactor();
redactor.add(KEY, '$CLINICAL_RECORDS_KEY');
redactor.add(OTHER, '$CLINICAL_RECORDS_OTHER_ORG_KEY');

/** Every piece of `key` 8 characters long found in `text`. */
const pieces = (text: string, key: string) =>
  Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8)).filter((p) => text.includes(p));

describe('Redactor: the key in any form a server may echo', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  it.each([
    ['upper case', KEY.toUpperCase()],
    ['mixed case', KEY.replace(/[a-f]/g, (c) => c.toUpperCase())],
    ['split by one dash', `${KEY.slice(0, 17)}-${KEY.slice(17)}`],
    ['split by a line break', `${KEY.slice(0, 20)}\n  ${KEY.slice(20)}`],
    ['split by a soft hyphen', `${KEY.slice(0, 9)}\u00ad${KEY.slice(9)}`],
    ['base64', b64(KEY)],
    ['base64 inside a document, at each offset', [0, 1, 2].map((n) => b64(`${'x'.repeat(n)}{"key":"${KEY}"}`)).join(' ')],
    ['base64url inside a token', Buffer.from(`>>>?${KEY}???`).toString('base64url')],
  ])('%s', (_, echoed) => {
    const out = redactor.redact(`echo: ${echoed} end`);
    expect(out).toMatch(/\$CLINICAL_RECORDS_KEY/);
    expect(out.toLowerCase()).not.toContain(KEY.slice(16, 28));
    expect(out.replace(/[-\s\u00ad]/g, '').toLowerCase()).not.toContain(KEY.slice(16, 28));
    for (const text of [out, Buffer.from(out, 'base64').toString('latin1'), Buffer.from(out, 'base64url').toString('latin1')])
      expect(text).not.toContain(KEY.slice(16, 28));
  });

  it('leaves text that only looks alike', () => {
    const near = `0123456789ABCDEF-0123 and ${b64('an ordinary sentence')}`; // the key's middle, upper-cased, but not the key
    expect(redactor.redact(near)).toBe(near);
  });
});

describe('Redactor', () => {
  it('replaces a key whole, and a piece a cut left at either end of it', () => {
    expect(redactor.redact(`a ${KEY} b`)).toBe('a $CLINICAL_RECORDS_KEY b');
    expect(redactor.redact(`{"echo":"${KEY.slice(0, 24)}`)).toBe('{"echo":"[part of $CLINICAL_RECORDS_KEY]');
    expect(redactor.redact(`${KEY.slice(0, 31)} (cut)`)).toBe('[part of $CLINICAL_RECORDS_KEY] (cut)');
    expect(redactor.redact(`…${OTHER.slice(9)}"}`)).toBe('…[part of $CLINICAL_RECORDS_OTHER_ORG_KEY]"}');
    // Keys sharing their first characters: the piece is the one it matches longest.
    expect(redactor.redact(`${OTHER.slice(0, 30)}|${KEY.slice(0, 20)}`)).toBe(
      '[part of $CLINICAL_RECORDS_OTHER_ORG_KEY]|[part of $CLINICAL_RECORDS_KEY]',
    );
    expect(redactor.redact('nothing here')).toBe('nothing here');
    expect(redactor.deep({ [KEY]: [KEY.slice(0, 12)] })).toEqual({ $CLINICAL_RECORDS_KEY: ['[part of $CLINICAL_RECORDS_KEY]'] });
    expect(redactor.variables()).toEqual(
      new Map([
        ['CLINICAL_RECORDS_KEY', KEY],
        ['CLINICAL_RECORDS_OTHER_ORG_KEY', OTHER],
      ]),
    );
  });

  it('no report carries any piece of a key a check cut its evidence through', () => {
    const echoed = `{"error":"bad key ${KEY}","other":"${OTHER}"}`;
    const results: CheckResult[] = [
      {
        name: 'echo',
        area: 'AUTH',
        ruleId: 'AUTH-002',
        rule: 'r',
        provenance: 'documented',
        outcome: 'failed',
        reason: echoed.slice(0, 40),
        failures: [
          {
            ruleId: 'AUTH-002',
            message: `GET /x ${echoed.slice(0, 42)}`,
            expected: echoed.slice(5, 49),
            actual: `401 ${echoed.slice(0, 54)}`,
            operation: 'GET /x',
            status: 401,
          },
        ],
        assertions: 1,
        ms: 1,
      },
    ];
    const report = redactor.deep<RunReport>(runReport(results, 't'));
    const dir = prepareOutDir(mkdtempSync(join(tmpdir(), 'crc-redact-')));
    const { files } = writeReports(report, ['junit', 'json', 'html'], dir);
    for (const text of [renderConsole(report), ...files.map((f) => readFileSync(f, 'utf8'))])
      for (const key of [KEY, OTHER]) expect(pieces(text, key.slice(16))).toEqual([]);
  });
});
