// The kit's own marks (x-assumption, x-assumption-keywords, x-required-scopes, ...) compared where they are written,
// apart from the structural engine: redocly diff takes an inline parameter that gained an `x-assumption` for one
// removed and another added (a false breaking change), so it is given the contract without them.
import { escapeToken, type Json, type JsonObject } from '../spec/runtime/json-pointer.ts';
import type { EngineChange } from './structural.ts';

const isObject = (n: Json | undefined): n is JsonObject => !!n && typeof n === 'object' && !Array.isArray(n);
const isExtension = (key: string) => key.startsWith('x-');

/** A copy of the contract without any x-* key. */
export function withoutExtensions(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutExtensions);
  if (!isObject(node)) return node;
  return Object.fromEntries(Object.entries(node).flatMap(([k, v]) => (isExtension(k) ? [] : [[k, withoutExtensions(v)]])));
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
