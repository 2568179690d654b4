// One-operation cases: positive (a valid request drawn from the contract), negative (a valid body with one violation
// the contract forbids unambiguously) and auth (a valid request without a key, or with a wrong one). Under the
// documented profile a violation that only an x-assumption forbids is never generated (datagen marks those).
import type { Contract, Operation } from '../../spec/runtime/contract.ts';
import { BodyGenerator } from '../data/datagen.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import { assumedKeyword } from '../../spec/runtime/relax.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';
import { concrete, XID, type Case, type Kind, type Step } from './case.ts';
import { queryViolations } from './query-violations.ts';
import type { Rng } from './prng.ts';
import { Setup } from './setup.ts';
import { ValueDraw } from './values.ts';

/** Query parameters a positive case leaves alone: a lookup by a value that names nothing answers 404 by design. */
const LOOKUPS = new Set(['external_id', 'npi']);

export class CaseGenerator {
  private readonly setup: Setup;
  private readonly bodies: BodyGenerator;

  constructor(
    private readonly contract: Contract,
    private readonly profile: Profile,
  ) {
    this.setup = new Setup(contract);
    this.bodies = new BodyGenerator(contract);
  }

  /** A case of `kind` for operation `opId`, drawn from `rng`; undefined when the operation has none of that kind. */
  single(kind: Exclude<Kind, 'stateful'>, opId: string, index: number, rng: Rng): Case | undefined {
    const op = this.contract.byId(opId);
    const steps: Step[] = [];
    const path = this.setup.pathValues(op, steps, rng);
    if (!path) return undefined;
    const draw = new ValueDraw(this.contract, rng);
    const query = this.query(op, draw);
    let body: Record<string, unknown> | undefined;
    if (op.jsonBodyPointer) {
      const bindings = this.setup.bindings(op, steps, rng, 'drawn');
      if (!bindings) return undefined;
      body = this.drawBody(op, draw, bindings);
    } else if (op.hasRequestBody) body = { external_id: XID };
    const upload = op.hasRequestBody && !op.jsonBodyPointer ? true : undefined;
    const base: Step = { op: opId, path, query, body, upload, key: 'main', intent: 'accept', assumed: draw.assumed || undefined };
    const label = (what: string) => ({ index, kind, op: opId, label: `${op.method} ${op.template}: ${what}` });
    if (kind === 'positive') return { ...label('valid request'), steps: [...steps, base] };
    if (kind === 'auth') {
      const key = rng.chance(0.5) ? 'none' : 'invalid';
      return { ...label(key === 'none' ? 'no X-API-Key' : 'a wrong X-API-Key'), steps: [...steps, { ...base, key, intent: 'refuse' }] };
    }
    const inBody =
      op.jsonBodyPointer && body
        ? this.bodies.invalid(op.jsonBodyPointer, body, () => ({}), concrete).filter((c) => this.profile === 'all' || !c.assumed)
        : [];
    const inQuery = this.profile === 'all' ? queryViolations(this.contract, op) : [];
    if (!inBody.length && !inQuery.length) return undefined;
    const n = rng.int(inBody.length + inQuery.length);
    if (n >= inBody.length) {
      const q = inQuery[n - inBody.length]!;
      const violation = { field: q.param, label: q.label };
      return { ...label(q.label), steps: [...steps, { ...base, query: { ...query, [q.param]: q.value }, intent: 'reject', violation }] };
    }
    const c = inBody[n]!;
    const violation = { field: c.field.split('.')[0]!.split('|')[0]!, label: c.label };
    return {
      ...label(c.label),
      steps: [...steps, { ...base, body: c.body, intent: 'reject', assumed: c.assumed || undefined, violation }],
    };
  }

  /** A drawn body that the contract (strict) accepts, else the plain valid one with the same bindings. */
  drawBody(op: Operation, draw: ValueDraw, bindings: Record<string, unknown>): Record<string, unknown> {
    const schema = this.contract.resolve(op.jsonBodyPointer!) as JsonObject;
    const body = draw.object(schema, bindings);
    // Which fields a body must have is the kit's reading where the object's mark covers `required`; all of them is not.
    if (Object.keys(body).length < Object.keys(schema.properties ?? {}).length && assumedKeyword(schema, 'required')) draw.assumed = true;
    if (this.bodies.isValid(op.jsonBodyPointer!, concrete(body))) return body;
    const plain = this.bodies.object(schema, bindings, true);
    return Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  }

  /**
   * Query values: each parameter more often than not (lookups never), drawn at its bounds, enums and formats. Under
   * the documented profile a parameter whose name is the kit's (its own x-assumption: "Names of the ... query
   * parameters: not shown") is never sent, since a server with other names may refuse it, and one whose default is the
   * kit's is always sent, since a server may require it (a valid request is valid under every reading).
   */
  private query(op: Operation, draw: ValueDraw): Record<string, string | number> | undefined {
    const out: Record<string, string | number> = {};
    const documented = this.profile === 'documented';
    for (const p of op.parameters) {
      if (p.in !== 'query' || LOOKUPS.has(String(p.name))) continue;
      if (documented && 'x-assumption' in p) continue;
      const needed = documented && assumedKeyword(p.schema as JsonObject, 'default');
      if (!needed && !draw.chance(0.6)) continue;
      const v = draw.value(p.schema as Json);
      if (v !== null && typeof v !== 'object') out[String(p.name)] = typeof v === 'boolean' ? String(v) : (v as string | number);
    }
    return Object.keys(out).length ? out : undefined;
  }
}
