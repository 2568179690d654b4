// The suite's own fixtures agree with the formats they stand for: the PDF is well-formed and its text readable, the
// NPI check digit is the CMS one (the mock's seed agrees: tests may read the mock), and the CSV reader reads RFC 4180.
import { describe, expect, it } from 'vitest';
import { minimalPdf } from './pdf.ts';
import { npiCheckDigit, unusedNpi } from './npi.ts';
import { readCsv } from './csv.ts';
import { isValidNpi, npiCheckDigit as seedCheckDigit } from '../../mock/seed/random.ts';

describe('suite fixtures', () => {
  it('minimalPdf: a PDF whose xref offsets point at its objects and whose text shows the lines', () => {
    const text = new TextDecoder().decode(minimalPdf(['Hello (world)', 'naïve']));
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text).toContain('(Hello \\(world\\)) Tj');
    expect(text).toContain('(na?ve) Tj');
    const start = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(start, start + 4)).toBe('xref');
    const offsets = [...text.slice(start).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBe(5);
    for (const [i, o] of offsets.entries()) expect(text.slice(o, o + 7), `object ${i + 1}`).toBe(`${i + 1} 0 obj`);
  });

  it('npiCheckDigit: the CMS example 1234567893, and the same digit as the mock seeds with', () => {
    expect(npiCheckDigit('123456789')).toBe(3);
    for (let i = 0; i < 200; i++) {
      const nine = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
      expect(npiCheckDigit(nine), nine).toBe(seedCheckDigit(nine));
    }
    const first = unusedNpi([]);
    expect(isValidNpi(first)).toBe(true);
    // An individual's NPI begins with 1: a server that checks the form takes it as one.
    expect(first).toMatch(/^1\d{9}$/);
    expect(unusedNpi([first])).not.toBe(first);
  });

  it('readCsv: quoted commas, doubled quotes, line breaks in cells, CRLF, LF and empty cells', () => {
    expect(readCsv('a,b\r\n"x,1","say ""hi"""\r\n"two\nlines",\n,last')).toEqual([
      ['a', 'b'],
      ['x,1', 'say "hi"'],
      ['two\nlines', ''],
      ['', 'last'],
    ]);
    expect(readCsv('a,\r\n')).toEqual([['a', '']]);
    expect(readCsv('a,')).toEqual([['a', '']]);
    expect(readCsv('x\ry')).toEqual([['x'], ['y']]);
  });
});
