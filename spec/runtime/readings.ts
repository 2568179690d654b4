// The readings catalogue (spec/readings.yaml), read strictly: every place where the source document leaves room, and
// the other readings a real team might ship. A YAML error or an entry that breaks the grammar (documented at the top
// of readings.yaml) is an error naming every problem, never a partly read catalogue. Node only (tests, scripts and
// `npm run generate`, which writes generated/readings.ts for the engine, a page included).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const CATALOGUE_URL = new URL('../readings.yaml', import.meta.url);
const PLAYS = ['engine', 'outside'] as const;

interface Reading {
  id: string;
  says: string;
  /** engine: the mock plays it; outside: not observable through {base_url} (`why` says why). */
  plays: (typeof PLAYS)[number];
  why?: string;
  /** false: cannot be played together with the others (left out of `--readings all`). */
  combines: boolean;
}

interface Place {
  id: string;
  section: string;
  /** The document's own words that leave the room. */
  words: string[];
  /** Table.field for fields a table gives only a type. */
  fields: string[];
  rules: string[];
  kit?: string;
  /** Ids of the other readings; empty when the place grants no room (`room: false`, `why`). */
  readings: string[];
  room: boolean;
  why?: string;
}

export interface Catalogue {
  readings: Reading[];
  places: Place[];
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
type Entry = Record<string, unknown>;

function readingProblems(id: string, r: Entry): string[] {
  const at = `reading ${id}`;
  const problems: string[] = [];
  for (const k of Object.keys(r)) if (!['says', 'plays', 'why', 'combines'].includes(k)) problems.push(`${at}: unknown field ${k}`);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) problems.push(`${at}: id must be kebab-case`);
  if (!isText(r.says)) problems.push(`${at}: says must be non-empty text`);
  if (r.plays !== undefined && !(PLAYS as readonly unknown[]).includes(r.plays))
    problems.push(`${at}: plays must be ${PLAYS.join(' or ')}`);
  if (r.plays === 'outside' && !isText(r.why)) problems.push(`${at}: a reading played outside needs why`);
  if (r.combines !== undefined && typeof r.combines !== 'boolean') problems.push(`${at}: combines must be a boolean`);
  return problems;
}

function placeProblems(p: Entry, index: number, readings: ReadonlySet<string>): string[] {
  const at = `place ${index + 1}${isText(p.id) ? ` (${p.id})` : ''}`;
  const problems: string[] = [];
  const known = ['id', 'section', 'words', 'fields', 'rules', 'kit', 'readings', 'room', 'why'];
  for (const k of Object.keys(p)) if (!known.includes(k)) problems.push(`${at}: unknown field ${k}`);
  for (const k of ['id', 'section'] as const) if (!isText(p[k])) problems.push(`${at}: ${k} must be non-empty text`);
  if (!isTextList(p.words) || !p.words.length) problems.push(`${at}: words must quote the document`);
  if (!isTextList(p.rules) || !p.rules.length) problems.push(`${at}: rules must list rule ids`);
  if (p.fields !== undefined && !isTextList(p.fields)) problems.push(`${at}: fields must be Table.field names`);
  if (p.room === false) {
    if (!isText(p.why)) problems.push(`${at}: a place without room needs why`);
    if (p.readings !== undefined) problems.push(`${at}: a place without room has no readings`);
  } else {
    if (!isText(p.kit)) problems.push(`${at}: kit must state the kit's reading`);
    if (!isTextList(p.readings) || !p.readings.length) problems.push(`${at}: readings must list at least one other reading`);
    else for (const r of p.readings) if (!readings.has(r)) problems.push(`${at}: reading ${r} is not in readings`);
  }
  return problems;
}

/** The catalogue of a readings file's text; `file` names it in errors. */
export function parseReadings(text: string, file = 'spec/readings.yaml'): Catalogue {
  let doc: { readings?: unknown; places?: unknown } | null;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`${file}: YAML does not parse: ${(e as Error).message.split('\n')[0]}`);
  }
  const rawReadings = doc?.readings;
  const rawPlaces = doc?.places;
  if (!rawReadings || typeof rawReadings !== 'object' || Array.isArray(rawReadings))
    throw new Error(`${file}: expected a map under readings:`);
  if (!Array.isArray(rawPlaces) || !rawPlaces.length) throw new Error(`${file}: expected a non-empty list under places:`);
  const entries = Object.entries(rawReadings as Record<string, Entry>);
  const ids = new Set(entries.map(([id]) => id));
  const problems = [
    ...entries.flatMap(([id, r]) => (r && typeof r === 'object' ? readingProblems(id, r) : [`reading ${id}: not a mapping`])),
    ...rawPlaces.flatMap((p, i) => (p && typeof p === 'object' ? placeProblems(p as Entry, i, ids) : [`place ${i + 1}: not a mapping`])),
  ];
  const placeIds = rawPlaces.map((p) => (p as Entry)?.id);
  for (const id of new Set(placeIds.filter((id, i) => placeIds.indexOf(id) !== i)))
    problems.push(`place id ${String(id)} is used more than once`);
  const used = new Set(rawPlaces.flatMap((p) => ((p as Entry).readings as string[] | undefined) ?? []));
  for (const id of ids) if (!used.has(id)) problems.push(`reading ${id} belongs to no place`);
  if (problems.length) throw new Error(`${file} is not usable:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    readings: entries.map(([id, r]) => ({
      id,
      says: String(r.says).trim(),
      plays: (r.plays as Reading['plays'] | undefined) ?? 'engine',
      ...(isText(r.why) ? { why: r.why } : {}),
      combines: r.combines !== false,
    })),
    places: (rawPlaces as Entry[]).map((p) => ({
      id: p.id as string,
      section: p.section as string,
      words: p.words as string[],
      fields: (p.fields as string[] | undefined) ?? [],
      rules: p.rules as string[],
      ...(isText(p.kit) ? { kit: p.kit } : {}),
      readings: (p.readings as string[] | undefined) ?? [],
      room: p.room !== false,
      ...(isText(p.why) ? { why: p.why } : {}),
    })),
  };
}

/** Reads and checks the catalogue (spec/readings.yaml unless told otherwise). */
export function loadReadings(url: URL | string = CATALOGUE_URL): Catalogue {
  return parseReadings(readFileSync(url, 'utf8'), String(url));
}
