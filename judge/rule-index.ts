// Which documented rule a part of an answer belongs to, read from the register's spec pointers (spec/rules.yaml) and
// the contract: the status the document states for an operation, and the rule that owns a node of a response schema.
// The judge names that rule in its findings instead of the generic one of the check that found them.
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import type { Register, Rule } from '../spec/runtime/register.ts';
import { escapeToken, nodesAlong, pointerTokens, type JsonObject } from '../spec/runtime/json-pointer.ts';

const bare = (pointer: string) => (pointer.startsWith('#') ? pointer.slice(1) : pointer);
const COMBINERS = ['allOf', 'anyOf', 'oneOf'] as const;
/** A pointer at an operation itself (`/paths/~1patients~1{patientId}/delete`). */
const isOperation = (pointer: string) => /^\/paths\/[^/]+\/(get|put|post|delete|patch|options|head|trace)$/.test(pointer);

export class RuleIndex {
  /** Pointer (without '#') → the documented exchange rules that point at it, register order. */
  private readonly byPointer = new Map<string, Rule[]>();
  /** An operation → the statuses the document states for it (statedStatuses), computed once each. */
  private readonly stated = new Map<Operation, Map<number, Rule>>();
  /** An operation → its path parameters' form rules (pathParamRules), computed once each. */
  private readonly pathForms = new Map<Operation, Map<string, { rule: Rule; schema: string }>>();

  constructor(
    private readonly contract: Contract,
    register: Register,
  ) {
    // Only what one exchange can show: a rule of a sequence, of time or webhooks is never a finding of one answer.
    for (const rule of register.rules) {
      if (rule.provenance !== 'documented' || rule.seen !== 'exchange') continue;
      for (const p of rule.spec) this.byPointer.set(p, [...(this.byPointer.get(p) ?? []), rule]);
    }
  }

  /**
   * The statuses the document states for an operation, each with the rule that states it: a documented rule pointing
   * at the response itself (`.../post/responses/201`), one the kit did not mark as its own reading (x-assumption).
   */
  statedStatuses(op: Operation): Map<number, Rule> {
    const known = this.stated.get(op);
    if (known) return known;
    const out = new Map<number, Rule>();
    this.stated.set(op, out);
    for (const [status, { node }] of op.responses) {
      if (!/^\d{3}$/.test(status) || 'x-assumption' in node) continue;
      const rule = this.byPointer.get(`${bare(op.pointer)}/responses/${status}`)?.[0];
      if (rule) out.set(Number(status), rule);
    }
    return out;
  }

  /** The documented rule pointing at an operation itself ("DELETE /patients/{patientId} answers {success: true}"). */
  operationRule(op: Operation): Rule | undefined {
    return [...(this.byPointer.get(bare(op.pointer)) ?? [])].sort((a, b) => a.spec.length - b.spec.length)[0];
  }

  /**
   * The documented rule stating the form of each path parameter of an operation (PAT-025: patientId is digits), with
   * the pointer of the parameter's schema. A rule pointing at the operation's own path item (REGEN-002) comes before one
   * pointing at the shared parameter (NOTE-023).
   */
  pathParamRules(op: Operation): Map<string, { rule: Rule; schema: string }> {
    const known = this.pathForms.get(op);
    if (known) return known;
    const out = new Map<string, { rule: Rule; schema: string }>();
    this.pathForms.set(op, out);
    const pathItem = bare(op.pointer).replace(/\/[^/]+$/, '/');
    for (const param of op.parameters.filter((p) => p.in === 'path')) {
      const at = [...this.byPointer.keys()].filter((ptr) => this.contract.resolve(`#${ptr}`) === param);
      // The schema under the pointer that is the parameter itself, not a $ref to it (ajv reads pointers literally).
      const own = at.find((ptr) => typeof this.node(ptr)?.$ref !== 'string');
      const ptr = at.find((x) => x.startsWith(pathItem)) ?? at[0];
      if (own && ptr) out.set(String(param.name), { rule: this.byPointer.get(ptr)![0]!, schema: `#${own}/schema` });
    }
    return out;
  }

  /**
   * The schema pointers met on the way from a schema to the node an instance path names (refs followed, the branch of
   * a combiner that has the step), root first.
   */
  chain(schemaPointer: string, instancePath: string): string[] {
    const chain: string[] = [];
    const follow = (start: string) => {
      let ptr = bare(start);
      chain.push(ptr);
      let node = this.node(ptr);
      while (typeof node?.$ref === 'string') {
        ptr = bare(node.$ref);
        chain.push(ptr);
        node = this.node(ptr);
      }
      return { ptr, node };
    };
    let at = follow(schemaPointer);
    for (const token of pointerTokens(instancePath)) {
      const next = this.step(at.ptr, at.node, token);
      if (!next) break;
      at = follow(next);
    }
    return chain;
  }

  /**
   * The documented rule owning the deepest node of a chain that one owns: the most specific (fewest pointers) there.
   * With `op`, a rule about another operation owns nothing of this one's (PAT-024, the patient DELETE's {success: true},
   * points at the Success schema every DELETE shares).
   */
  ownerOf(chain: string[], op?: Operation): Rule | undefined {
    const elsewhere = (r: Rule) => !!op && r.spec.some(isOperation) && !r.spec.includes(bare(op.pointer));
    // The rule stating what this operation answers comes first at its node (DOC-021 over PAG-005, whose finding on the
    // documents list is a meta block, absenceOwner's).
    const own = (r: Rule) => (op && r.spec.includes(bare(op.pointer)) ? 0 : 1);
    for (const ptr of [...chain].reverse()) {
      const rules = this.byPointer.get(ptr)?.filter((r) => !elsewhere(r));
      if (rules?.length) return [...rules].sort((a, b) => own(a) - own(b) || a.spec.length - b.spec.length)[0];
    }
    return undefined;
  }

  /** Every documented exchange rule pointing at a node of a chain, deepest node first (each once). */
  along(chain: string[]): Rule[] {
    return [...new Set([...chain].reverse().flatMap((ptr) => this.byPointer.get(bare(ptr)) ?? []))];
  }

  /**
   * The documented rule saying `field` is not in the object a chain ends at: one that points at that object and at
   * the field elsewhere (PAT-012: pronouns on Patient, not on PatientListItem).
   */
  absenceOwner(chain: string[], field: string): Rule | undefined {
    const tail = `/properties/${escapeToken(field)}`;
    for (const ptr of [...chain].reverse())
      for (const rule of this.byPointer.get(ptr) ?? [])
        if (rule.spec.some((p) => p.endsWith(tail) && !p.startsWith(`${ptr}/`))) return rule;
    return undefined;
  }

  /** The node at a pointer as written (a $ref not followed: the chain names each ref's target). */
  private node(ptr: string): JsonObject | undefined {
    const n = nodesAlong(this.contract.doc, ptr)?.at(-1);
    return n && typeof n === 'object' && !Array.isArray(n) ? (n as JsonObject) : undefined;
  }

  /** The pointer one instance step (a field name or an array index) leads to from a schema node, if the schema says. */
  private step(ptr: string, node: JsonObject | undefined, token: string): string | undefined {
    if (!node) return undefined;
    const props = node.properties as JsonObject | undefined;
    if (props && token in props) return `${ptr}/properties/${escapeToken(token)}`;
    if (/^\d+$/.test(token) && node.items && typeof node.items === 'object') return `${ptr}/items`;
    for (const k of COMBINERS) {
      const branches = node[k];
      if (!Array.isArray(branches)) continue;
      for (const i of branches.keys()) {
        let bp = `${ptr}/${k}/${i}`;
        let b = this.node(bp);
        while (typeof b?.$ref === 'string') b = this.node((bp = bare(b.$ref)));
        const found = this.step(bp, b, token);
        if (found) return found;
      }
    }
    return undefined;
  }
}
