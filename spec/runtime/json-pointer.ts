// RFC 6901 JSON pointers and local `$ref` following over a parsed JSON document (the bundled spec, usually).
// No Node built-ins: the client's webhook helpers run in browsers too.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** One reference token escaped for a pointer: `~` as `~0`, `/` as `~1`. */
export const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The reference tokens of a pointer ('/paths/~1patients' or '#/paths/~1patients'), `~1` decoded before `~0`. */
export function pointerTokens(pointer: string): string[] {
  const bare = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (bare === '') return [];
  if (!bare.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return bare
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The nodes met from the root to the pointer's target (root first); undefined when the pointer does not resolve.
 * Strict: an array index must be a canonical number in range, an object key an own property.
 */
export function nodesAlong(doc: Json, pointer: string): Json[] | undefined {
  const nodes: Json[] = [doc];
  let node: Json = doc;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) return undefined;
      node = node[Number(token)] as Json;
    } else {
      if (!Object.hasOwn(node, token)) return undefined;
      node = node[token] as Json;
    }
    nodes.push(node);
  }
  return nodes;
}

/** The node a pointer names in a document; undefined when it does not resolve (or is not a pointer). */
export function resolvePointer(doc: Json, pointer: string): Json | undefined {
  if (!pointer.startsWith('#') && !pointer.startsWith('/') && pointer !== '') return undefined;
  return nodesAlong(doc, pointer)?.at(-1);
}

/** Follows `$ref` (local to the document) until a non-reference node; undefined where a reference is dangling. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 32 && current && typeof current === 'object' && !Array.isArray(current) && typeof current.$ref === 'string'; i++)
    current = resolvePointer(doc, current.$ref);
  return current;
}
