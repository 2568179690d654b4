// Loads the bundled contract (generated/openapi.json) and compiles its schemas with ajv (JSON Schema 2020-12,
// the OpenAPI 3.1 dialect). Shared by tests, the mock and the conformance suite so that "valid" means one thing.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const BUNDLE_URL = new URL('../generated/openapi.json', import.meta.url);
/** The id the bundle is registered under, so `#/components/...` refs resolve as `openapi.json#/components/...`. */
export const BUNDLE_ID = 'openapi.json';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function loadBundle(): JsonObject {
  return JSON.parse(readFileSync(BUNDLE_URL, 'utf8')) as JsonObject;
}

/**
 * OpenAPI keywords JSON Schema does not know: the document's own top-level fields (the bundle is registered whole so
 * that pointers anywhere in it compile) and the schema-object extras. Declared so ajv stays strict otherwise.
 */
const OPENAPI_KEYWORDS = [
  'openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags',
  'discriminator', 'xml', 'externalDocs', 'example',
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
  if (Array.isArray(node)) node.forEach((n) => extensionKeywords(n, found));
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

/** RFC 6901: resolves a JSON pointer ('/paths/~1patients/get') in a document; undefined when it does not resolve. */
export function resolvePointer(doc: Json, pointer: string): Json | undefined {
  if (pointer === '' || pointer === '#') return doc;
  const parts = pointer.replace(/^#/, '').split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Json | undefined = doc;
  for (const part of parts) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(part)] : (node as JsonObject)[part];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref` (local to the bundle) until a non-reference node. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 32 && current && typeof current === 'object' && !Array.isArray(current) && typeof current.$ref === 'string'; i++)
    current = resolvePointer(doc, current.$ref);
  return current;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  path: string;
  method: (typeof HTTP_METHODS)[number];
  operation: JsonObject;
  /** Path-level parameters followed by the operation's own. */
  parameters: JsonObject[];
}

/** Every operation under `paths`, with its inherited parameters resolved. */
export function operations(doc: JsonObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    const pathItem = item as JsonObject;
    const shared = ((pathItem.parameters ?? []) as Json[]).map((p) => deref(doc, p) as JsonObject);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      const own = ((operation.parameters ?? []) as Json[]).map((p) => deref(doc, p) as JsonObject);
      out.push({ path, method, operation, parameters: [...shared, ...own] });
    }
  }
  return out;
}
