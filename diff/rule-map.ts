// Which rules a change touches: a rule names the contract nodes that express it (JSON pointers into the bundled spec,
// spec/rules.yaml's `spec` field); a change touches the rule when one of its pointers is one of the rule's nodes, lies
// inside one (a field of a schema the rule is about), or contains one (an operation removed with the rules on it).
import type { RegisterEntry } from './register.ts';

export interface RuleIndex {
  /** The ids of the rules that any of these pointers touches, sorted. */
  touched(pointers: string[]): string[];
  provenance(id: string): string | undefined;
}

/** Whole sections name no node: a rule that cites /paths (every path is relative to the base) touches no one change. */
const SECTIONS = new Set(['/paths', '/components', '/webhooks', '']);
const bare = (pointer: string) => (pointer.startsWith('#') ? pointer.slice(1) : pointer);
const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);

/** An index over the rules of both registers (a removed node may touch a rule only the base had). */
export function ruleIndex(...registers: Array<Map<string, RegisterEntry>>): RuleIndex {
  const nodes: Array<{ id: string; pointer: string }> = [];
  const provenance = new Map<string, string>();
  for (const register of registers)
    for (const [id, entry] of register) {
      if (typeof entry.provenance === 'string') provenance.set(id, entry.provenance);
      for (const p of Array.isArray(entry.spec) ? entry.spec : [])
        if (typeof p === 'string' && !SECTIONS.has(bare(p))) nodes.push({ id, pointer: bare(p) });
    }
  return {
    touched(pointers) {
      const wanted = pointers.map(bare);
      const ids = new Set<string>();
      for (const { id, pointer } of nodes) if (wanted.some((c) => within(c, pointer) || within(pointer, c))) ids.add(id);
      return [...ids].sort();
    },
    provenance: (id) => provenance.get(id),
  };
}
