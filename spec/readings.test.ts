// The catalogue of readings covers the document: every sentence that leaves room ("not shown", "typical", "roughly",
// "may") and every field a table gives only a type has a place in spec/readings.yaml; every quote is the document's
// own; every rule id is the register's. A new version of the document with a new "not shown" fails here until the
// catalogue says how the kit reads it and what other reading the mock plays.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readingsCatalogue } from '../generated/readings.ts';
import { loadReadings, parseReadings } from './runtime/readings.ts';
import { loadRules } from './runtime/rules.ts';

const DOCUMENT = readFileSync(new URL('../../shared/source/clinical-records-api.md', import.meta.url), 'utf8');
const catalogue = loadReadings();
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
const quotes = catalogue.places.flatMap((p) => p.words.map((w) => ({ place: p.id, quote: norm(w) })));

/** The document's sentences (a table cell is one) that leave room, with their line. */
function roomSentences(): Array<{ line: string; sentence: string }> {
  const out: Array<{ line: string; sentence: string }> = [];
  for (const raw of DOCUMENT.split('\n')) {
    const line = norm(raw);
    const parts = line.startsWith('|') ? line.split('|') : line.split(/(?<=[.:])\s+(?=[A-Z0-9`])/);
    for (const part of parts) if (/not shown|typical|roughly|\bmay\b/i.test(part)) out.push({ line, sentence: norm(part) });
  }
  return out;
}

/** A type with no form: a bare JSON type, or one whose parenthesis names a meaning, not a form. */
const TYPE_ONLY = /^(string|integer|object|nullable|array of strings|JSON object)( \((?!individual|provider id)[^)]*\))?$/;
/** Notes that give the form themselves. */
const FORM_IN_NOTES = /digits only|pattern|min length|max length/;
/** Fields whose form the document gives in a section of its own (External identifiers: a string of 1 to 255). */
const FORM_ELSEWHERE = new Set(['external_id']);

/** Every field row of the field tables (Table.field), and those given only a type. */
function fieldRows(): { all: Set<string>; typeOnly: string[] } {
  const all = new Set<string>();
  const typeOnly: string[] = [];
  let table = '';
  for (const raw of DOCUMENT.split('\n')) {
    const heading = /^###\s+(.+?)(\s+\(.*\))?$/.exec(raw);
    if (heading) table = heading[1]!;
    if (!raw.startsWith('|') || /^\|\s*-/.test(raw)) continue;
    const [name, type, notes] = raw
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (!name || !type || !/^`?[a-z_0-9]+`?$/.test(name)) continue;
    const field = `${table}.${name.replaceAll('`', '')}`;
    all.add(field);
    if (TYPE_ONLY.test(type) && !FORM_IN_NOTES.test(notes ?? '') && !FORM_ELSEWHERE.has(name.replaceAll('`', ''))) typeOnly.push(field);
  }
  return { all, typeOnly };
}

describe('spec/readings.yaml', () => {
  it('has a place for every sentence of the document that leaves room', () => {
    const uncovered = roomSentences().filter(
      ({ line, sentence }) => !quotes.some((q) => line.includes(q.quote) && (sentence.includes(q.quote) || q.quote.includes(sentence))),
    );
    expect(uncovered.map((u) => u.sentence)).toEqual([]);
    expect(roomSentences().length).toBeGreaterThan(30);
  });

  it('has a place for every field a table gives only a type', () => {
    const { typeOnly } = fieldRows();
    const listed = new Set(catalogue.places.flatMap((p) => p.fields));
    expect(typeOnly.filter((f) => !listed.has(f))).toEqual([]);
    expect(typeOnly).toEqual(expect.arrayContaining(['Patient.email', 'Patient.phone', 'Patient.gender', 'Patient.address']));
  });

  it('quotes only the document, names only fields of its tables and rules of the register', () => {
    const doc = norm(DOCUMENT);
    expect(quotes.filter((q) => !doc.includes(q.quote))).toEqual([]);
    const { all } = fieldRows();
    expect(catalogue.places.flatMap((p) => p.fields).filter((f) => !all.has(f))).toEqual([]);
    const ids = new Set(loadRules().map((r) => r.id));
    expect(catalogue.places.flatMap((p) => p.rules).filter((r) => !ids.has(r))).toEqual([]);
  });

  it('gives every place with room at least one reading the mock plays, or says why none is observable', () => {
    const byId = new Map(catalogue.readings.map((r) => [r.id, r]));
    for (const p of catalogue.places.filter((x) => x.room)) {
      const played = p.readings.map((id) => byId.get(id)!);
      expect(played.some((r) => r.plays === 'engine') || played.every((r) => r.why), p.id).toBe(true);
    }
  });

  it('is what generated/readings.ts carries (npm run generate)', () => {
    expect(readingsCatalogue.map((r) => r.id)).toEqual(catalogue.readings.map((r) => r.id));
  });

  it('refuses a catalogue that breaks its grammar, naming every problem', () => {
    const bad =
      'readings:\n  Bad_Id: {says: ""}\nplaces:\n  - id: p\n    section: s\n    words: [w]\n    rules: [GEN-001]\n    readings: [nope]\n';
    expect(() => parseReadings(bad)).toThrow(/kebab-case[\s\S]*says must be[\s\S]*kit must[\s\S]*nope is not in readings/);
    expect(() => parseReadings('readings: [')).toThrow(/does not parse/);
  });
});
