// The kit's own marks (x-assumption, x-assumption-keywords, x-required-scopes, ...) compared where they are written,
// apart from the structural engine. redocly diff takes an inline parameter whose marks or words changed beside its
// schema for one removed and another added (a false breaking change: /providers' npi between the first contract and
// today), so it is given the contract without marks and without words (descriptions, summaries, examples: a change
// of those needs no bump).
import { escapeToken, type Json, type JsonObject } from '../spec/runtime/json-pointer.ts';
import type { EngineChange } from './structural.ts';

const isObject = (n: Json | undefined): n is JsonObject => !!n && typeof n === 'object' && !Array.isArray(n);
const isExtension = (key: string) => key.startsWith('x-');

const WORDS = new Set(['description', 'summary', 'example', 'examples']);
/** Maps whose keys are names (a property may be called `description`). */
const NAMED = new Set(['properties', 'patternProperties']);

/** A copy of the contract without x-* keys and without descriptive keywords: what the structural engine compares. */
export function forEngine(node: Json, parent = ''): Json {
  if (Array.isArray(node)) return node.map((n) => forEngine(n));
  if (!isObject(node)) return node;
  const kept = Object.entries(node).filter(([k]) => NAMED.has(parent) || !(isExtension(k) || WORDS.has(k)));
  return Object.fromEntries(kept.map(([k, v]) => [k, forEngine(v, k)]));
}

/** Every x-* key added, removed or changed, at the pointer where it is written (nodes present on both sides only). */
export function extensionChanges(base: Json, head: Json, at = ''): EngineChange[] {
  if (Array.isArray(base) && Array.isArray(head))
    return base.flatMap((b, i) => (i < head.length ? extensionChanges(b, head[i] as Json, `${at}/${i}`) : []));
  if (!isObject(base) || !isObject(head)) return [];
  const out: EngineChange[] = [];
  for (const key of new Set([...Object.keys(base), ...Object.keys(head)])) {
    const pointer = `#${at}/${escapeToken(key)}`;
    const [b, h] = [base[key], head[key]];
    if (!isExtension(key)) {
      if (b !== undefined && h !== undefined) out.push(...extensionChanges(b, h, `${at}/${escapeToken(key)}`));
      continue;
    }
    if (JSON.stringify(b) === JSON.stringify(h)) continue;
    const kind = b === undefined ? 'added' : h === undefined ? 'removed' : 'modified';
    out.push({
      path: pointer,
      typeName: 'SpecExtension',
      kind,
      impact: 'patch',
      property: key,
      verdicts: [],
      ...(b === undefined ? {} : { base: { pointer, value: b } }),
      ...(h === undefined ? {} : { revision: { pointer, value: h } }),
    });
  }
  return out;
}
