// The copy of generated/openapi.json that Dredd runs on, changed for two Dredd limits (the spec is untouched):
// - Dredd (gavel) turns every key of a response example into a required key, so the example keys of a free-form map
//   (ValidationFailed's `details`: "a map of field errors") would be demanded of every 400. Those examples become
//   `{}`: the map must still be there and be an object, but no particular field error is required.
// - Gavel compares the example of a non-JSON media type (the CSV export) byte for byte with the body, which no
//   real data equals. Those examples are dropped: status and headers (Content-Type included) are still checked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../spec/runtime/bundle.ts';
import { deref, type Json, type JsonObject } from '../spec/runtime/json-pointer.ts';

export const PREPARED_NAME = 'openapi.dredd.json';

const isObject = (n: Json | undefined): n is JsonObject => !!n && typeof n === 'object' && !Array.isArray(n);

/** A schema that lists no properties but admits any keys: a map whose keys an example cannot make required. */
function isMap(schema: JsonObject): boolean {
  const ap = schema.additionalProperties;
  return !schema.properties && (ap === true || isObject(ap)) && (schema.type === 'object' || schema.type === undefined);
}

/** The schemas a value under `schema` may match: the schema itself and its anyOf/oneOf/allOf branches. */
function branches(doc: JsonObject, schema: Json | undefined): JsonObject[] {
  const s = deref(doc, schema);
  if (!isObject(s)) return [];
  const out = [s];
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[k])) for (const b of s[k] as Json[]) out.push(...branches(doc, b));
  return out;
}

/** The example with the keys of every free-form map emptied; `changed` counts the maps emptied. */
function relaxExample(doc: JsonObject, schema: Json | undefined, example: Json, changed: { n: number }): Json {
  const candidates = branches(doc, schema);
  if (Array.isArray(example)) {
    const items = candidates.map((c) => c.items).find((i) => i !== undefined);
    return items === undefined ? example : example.map((e) => relaxExample(doc, items, e, changed));
  }
  if (!isObject(example)) return example;
  if (candidates.some(isMap) && !candidates.some((c) => c.properties) && Object.keys(example).length) {
    changed.n++;
    return {};
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(example)) {
    const prop = candidates.map((c) => (isObject(c.properties) ? c.properties[k] : undefined)).find((p) => p !== undefined);
    out[k] = prop === undefined ? v : relaxExample(doc, prop, v, changed);
  }
  return out;
}

const isJsonMedia = (type: string) => /^application\/(.+\+)?json$/i.test(type.split(';')[0]!.trim());

/** Walks every media type object (a node with `schema` and `example`/`examples`) of the document. */
function relaxMediaTypes(doc: JsonObject, node: Json, changed: { n: number }): void {
  if (Array.isArray(node)) {
    for (const n of node) relaxMediaTypes(doc, n, changed);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.content))
    for (const [type, media] of Object.entries(node.content))
      if (isObject(media) && !isJsonMedia(type) && ('example' in media || 'examples' in media)) {
        // Gavel compares a text example byte for byte with the body: no real listing equals a sample CSV.
        delete media.example;
        delete media.examples;
        changed.n++;
      }
  if ('schema' in node) {
    if ('example' in node) node.example = relaxExample(doc, node.schema, node.example!, changed);
    if (isObject(node.examples))
      for (const ex of Object.values(node.examples))
        if (isObject(ex) && 'value' in ex) ex.value = relaxExample(doc, node.schema, ex.value!, changed);
  }
  for (const [k, v] of Object.entries(node)) if (k !== 'schema') relaxMediaTypes(doc, v, changed);
}

/** A deep copy of the bundle prepared for Dredd, and how many examples it emptied or dropped. */
export function prepareForDredd(bundle: JsonObject = loadBundle()): { doc: JsonObject; changedExamples: number } {
  const doc = structuredClone(bundle);
  const changed = { n: 0 };
  relaxMediaTypes(doc, doc.paths ?? {}, changed);
  relaxMediaTypes(doc, (doc.components as JsonObject | undefined)?.responses ?? {}, changed);
  return { doc, changedExamples: changed.n };
}

/** Writes the prepared copy into `dir` and returns its path. */
export function writePreparedBundle(dir: string, bundle?: JsonObject): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, PREPARED_NAME);
  writeFileSync(path, `${JSON.stringify(prepareForDredd(bundle).doc, null, 2)}\n`);
  return path;
}
