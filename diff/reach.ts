// Which operations reach a component: the engine reports a change of a shared schema once, under the first operation
// it meets, so the kit lists every operation (and webhook) whose $refs lead, directly or through other components, to
// the node where the change is written.
import { type Json, pointerTokens } from '../spec/runtime/json-pointer.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

function refsIn(node: Json, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out.add(v.slice(1));
      else refsIn(v, out);
    }
  return out;
}

/** The component a pointer lies in (/components/<kind>/<name>), if it lies in one. */
const componentOf = (pointer: string): string | undefined => {
  const t = pointer.replace(/^#/, '').split('/');
  return t[1] === 'components' && t.length >= 4 ? t.slice(0, 4).join('/') : undefined;
};

export type Reach = (pointer: string) => string[];

/** For a contract, a function from a written pointer to the operations that reach it ('GET /patients', 'webhook X'). */
export function reachOf(doc: Json): Reach {
  const byComponent = new Map<string, Set<string>>();
  const root = doc as Record<string, Record<string, Record<string, Json>>>;
  for (const section of ['paths', 'webhooks'] as const)
    for (const [path, item] of Object.entries(root?.[section] ?? {}))
      for (const [method, op] of Object.entries(item ?? {})) {
        if (!METHODS.has(method)) continue;
        const name = section === 'paths' ? `${method.toUpperCase()} ${path}` : `webhook ${path}`;
        const seen = new Set<string>();
        const queue = [...refsIn(op, new Set()), ...refsIn(item.parameters ?? null, new Set())];
        while (queue.length) {
          const ref = componentOf(queue.pop()!);
          if (!ref || seen.has(ref)) continue;
          seen.add(ref);
          byComponent.set(ref, (byComponent.get(ref) ?? new Set()).add(name));
          const node = pointerTokens(ref).reduce<Json | undefined>((n, k) => (n as Record<string, Json> | undefined)?.[k], doc);
          queue.push(...refsIn(node ?? null, new Set()));
        }
      }
  return (pointer) => {
    const component = componentOf(pointer);
    return component ? [...(byComponent.get(component) ?? [])].sort() : [];
  };
}
