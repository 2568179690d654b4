// The documented profile's view of the contract: a copy of the bundle in which every schema node that carries
// `x-assumption` loses what the kit chose there, so that an assumption never fails a server that reads the document
// otherwise. The mark says what it covers: `x-assumption-keywords` lists the keywords the kit chose (closure, a
// header's integer form, RFC 3339's `format`, ...), and only they go; a mark without that list concerns the whole
// node, which keeps only its shape (type, properties, items, refs), and an object's fields may then also be null.
// `x-documented-required` names the fields the document itself requires: they stay required, and non-null. Read by
// the conformance suite's documented profile and by the mock when it plays readings (its Prism checks answers
// against this view).
import type { Json, JsonObject } from './json-pointer.ts';

/** Keywords a wholly relaxed node keeps: its structure. Everything else on it (bounds, enum, format, required, ...) goes. */
const KEEP = new Set(['type', 'properties', 'items', '$ref', 'allOf', 'description', 'title', 'x-assumption']);
/** Objects that are not schemas even when they carry x-assumption (operations, parameters, responses, headers). */
const NOT_SCHEMA = ['in', 'responses', 'content', 'headers', 'operationId'];
export const ASSUMED_KEYWORDS = 'x-assumption-keywords';
/** On a marked object: the fields the document says are always returned, which stay required when it is relaxed. */
const DOCUMENTED_REQUIRED = 'x-documented-required';

/** Did the kit assume this keyword of the schema node (its mark lists it, or concerns the whole node)? */
export function assumedKeyword(node: JsonObject, keyword: string): boolean {
  if (!('x-assumption' in node)) return false;
  const listed = node[ASSUMED_KEYWORDS];
  return !Array.isArray(listed) || listed.includes(keyword);
}

/** A schema node's `type` as a list (none when it names none). */
export const schemaTypes = (node: JsonObject): string[] =>
  Array.isArray(node.type) ? (node.type as string[]) : node.type ? [String(node.type)] : [];

const orNull = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });

function relaxNode(node: JsonObject): JsonObject {
  const listed = node[ASSUMED_KEYWORDS];
  // Fields the document itself says are always there survive any relaxation, and may not be null.
  const documented = Array.isArray(node[DOCUMENTED_REQUIRED]) ? (node[DOCUMENTED_REQUIRED] as string[]) : [];
  const keepRequired = (out: JsonObject) => (documented.length ? { ...out, required: documented } : out);
  if (Array.isArray(listed)) return keepRequired(Object.fromEntries(Object.entries(node).filter(([k]) => !listed.includes(k))));
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (KEEP.has(k)) out[k] = v;
  if (out.properties && typeof out.properties === 'object' && !Array.isArray(out.properties))
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, documented.includes(k) ? v : orNull(v)]));
  return keepRequired(out);
}

/**
 * An object's optional fields may be null: the document answers "none" with null in its own tables ("null when none
 * was set", "null on success", "nullable", "send null ... when there is none") and never says an unset field is left
 * out, so a server that answers every field, an unset one as null, reads it as well as one that leaves it out.
 */
function optionalsMayBeNull(node: JsonObject): JsonObject {
  const props = node.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return node;
  const required = new Set([
    ...(Array.isArray(node.required) ? node.required : []),
    ...(Array.isArray(node[DOCUMENTED_REQUIRED]) ? node[DOCUMENTED_REQUIRED] : []),
  ] as string[]);
  const out = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, required.has(k) || allowsNull(v) ? v : orNull(v)]));
  return { ...node, properties: out };
}

/** Does a property's schema already take null (a null type, or an anyOf branch of it)? */
const allowsNull = (v: Json): boolean =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  (schemaTypes(v).includes('null') || (Array.isArray(v.anyOf) && v.anyOf.some((b) => allowsNull(b as Json))));

export function relaxBundle(node: Json): Json {
  if (Array.isArray(node)) return node.map(relaxBundle);
  if (!node || typeof node !== 'object') return node;
  const copy: JsonObject = {};
  for (const [k, v] of Object.entries(node)) copy[k] = relaxBundle(v);
  const isSchema = 'x-assumption' in copy && !NOT_SCHEMA.some((k) => k in copy);
  return optionalsMayBeNull(isSchema ? relaxNode(copy) : copy);
}
