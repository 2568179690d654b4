// Loads the bundled contract (generated/openapi.json) and compiles its schemas with ajv (JSON Schema 2020-12,
// the OpenAPI 3.1 dialect). Shared by tests, the mock and the conformance suite so that "valid" means one thing.
// Where the bundle comes from is bundle-source.ts: read from the file in Node, imported into the bundle in a page
// (bundle-source.browser.ts, swapped by the package's `browser` field). The client gets its few spec values from
// generated/spec-values.ts instead.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readBundle } from './bundle-source.ts';
import type { Json, JsonObject } from './json-pointer.ts';

/** The id the bundle is registered under, so `#/components/...` refs resolve as `openapi.json#/components/...`. */
const BUNDLE_ID = 'openapi.json';

/** A fresh copy of the bundled spec (callers may keep or change it). */
export const loadBundle = (): JsonObject => readBundle() as JsonObject;

/**
 * OpenAPI keywords JSON Schema does not know: the document's own top-level fields (the bundle is registered whole so
 * that pointers anywhere in it compile) and the schema-object extras. Declared so ajv stays strict otherwise.
 */
const OPENAPI_KEYWORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'discriminator',
  'xml',
  'externalDocs',
  'example',
];

export function createAjv(bundle: JsonObject = loadBundle()): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  // Every `x-` extension is an annotation: accept any of them without listing them here.
  ajv.removeKeyword('$comment');
  ajv.addKeyword({ keyword: '$comment' });
  for (const k of extensionKeywords(bundle)) ajv.addKeyword({ keyword: k });
  ajv.addSchema({ ...(bundle as object), $id: BUNDLE_ID }, BUNDLE_ID);
  return ajv;
}

/** All `x-*` keys used inside the bundle's schemas. */
function extensionKeywords(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) extensionKeywords(n, found);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) found.add(k);
      extensionKeywords(v, found);
    }
  return found;
}

/** A ref into the bundle as ajv knows it: pointer '#/components/schemas/Patient' -> 'openapi.json#/components/schemas/Patient'. */
export function bundleRef(pointer: string): string {
  return `${BUNDLE_ID}${pointer}`;
}
