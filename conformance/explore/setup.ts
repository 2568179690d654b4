// The steps a case needs before the request it explores: a resource of its own for every path id (created under the
// run prefix, so later steps may change and delete it), or, for what a client cannot create (providers, notes,
// sessions), the first item of the list that has it. Everything is read from the contract: the collection a path id
// belongs to, its create and list operations, the fields an id comes from.
import type { Contract, Operation } from '../../spec/runtime/contract.ts';
import { BodyGenerator } from '../data/datagen.ts';
import type { Json, JsonObject } from '../../spec/runtime/json-pointer.ts';
import { templateParams } from '../../spec/runtime/operations.ts';
import { XID, type Ref, type Step } from './case.ts';
import type { Rng } from './prng.ts';
import { ValueDraw } from './values.ts';

/** A date-time far ahead, the same on every run (a generated one would make the same seed send other requests). */
const SETUP_TIME = '2031-06-02T10:00:00.000Z';

/** The answer field an id of a path parameter is read from elsewhere: sessionId → session_id. */
const fieldOf = (param: string) => param.replace(/Id$/, '_id').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export class Setup {
  private readonly bodies: BodyGenerator;

  constructor(private readonly contract: Contract) {
    this.bodies = new BodyGenerator(contract);
  }

  /** The POST that creates items of a collection, when the collection also deletes them (a client-owned resource). */
  creator(collection: string): Operation | undefined {
    const post = this.contract.operations.find((o) => o.method === 'POST' && o.template === collection);
    const del = this.contract.operations.find((o) => o.method === 'DELETE' && o.template.startsWith(`${collection}/{`));
    return post && del ? post : undefined;
  }

  /** Is the resource a path's last parameter names one a case creates itself (so a write on it is polite)? */
  ownable(template: string): boolean {
    const param = /\{([^}]+)\}(?!.*\{)/.exec(template)?.[1];
    return !!param && !!this.creator(template.slice(0, template.indexOf(`/{${param}}`)));
  }

  /**
   * Values for every path parameter of `op`, appending the steps that make or find them; undefined when one has no
   * source. A write on what the run does not own gets a well-formed id that names nothing.
   */
  pathValues(op: Operation, steps: Step[], rng: Rng, known: Record<string, string | Ref> = {}): Record<string, string | Ref> | undefined {
    const out: Record<string, string | Ref> = {};
    for (const param of templateParams(op.template)) {
      // A nested resource is made under the parent the path already names (a document of this patient).
      if (param in known) {
        out[param] = known[param]!;
        continue;
      }
      const collection = op.template.slice(0, op.template.indexOf(`/{${param}}`));
      const creator = this.creator(collection);
      if (creator) {
        const from = this.create(creator, steps, rng, out);
        if (from === undefined) return undefined;
        out[param] = { from, pick: 'id' };
        continue;
      }
      if (op.method !== 'GET') {
        out[param] = new ValueDraw(this.contract, rng).value({ type: 'string', format: 'uuid' } as Json) as string;
        continue;
      }
      const list = this.listWith(collection, fieldOf(param));
      if (!list) return undefined;
      steps.push({ op: list.op.operationId, key: 'main', intent: 'setup' });
      out[param] = { from: steps.length - 1, pick: list.pick };
    }
    return out;
  }

  /** Appends a create of `creator` (and what it needs) and returns its step's index. */
  create(creator: Operation, steps: Step[], rng: Rng, known: Record<string, string | Ref> = {}): number | undefined {
    const path = this.pathValues(creator, steps, rng, known);
    if (!path) return undefined;
    const upload = !creator.jsonBodyPointer;
    const body = upload ? { external_id: XID } : this.setupBody(creator, steps, rng);
    if (!body) return undefined;
    steps.push({ op: creator.operationId, path, body, upload: upload || undefined, key: 'main', intent: 'setup' });
    return steps.length - 1;
  }

  /** A plain valid body of a create: every documented field but optional objects and other resources' ids. */
  private setupBody(op: Operation, steps: Step[], rng: Rng): Record<string, unknown> | undefined {
    const schema = this.contract.resolve(op.jsonBodyPointer!) as JsonObject;
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const bindings = this.bindings(op, steps, rng, 'setup');
    if (!bindings) return undefined;
    const body = this.bodies.object(schema, bindings, true);
    for (const [k, raw] of Object.entries(props)) {
      const s = (this.contract.deref(raw) ?? {}) as JsonObject;
      if (required.has(k) || k in bindings) continue;
      if (s.type === 'object' || s.properties || /_id$/.test(k)) delete body[k];
    }
    return body;
  }

  /**
   * Values of a body's fields that name things: external_id a fresh run id, date-times fixed, another resource's id
   * from a step of the case (created or listed). `setup` leaves out what is optional; a drawn body keeps it half the time.
   */
  bindings(op: Operation, steps: Step[], rng: Rng, mode: 'setup' | 'drawn'): Record<string, unknown> | undefined {
    const schema = this.contract.resolve(op.jsonBodyPointer!) as JsonObject;
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const out: Record<string, unknown> = {};
    for (const [k, raw] of Object.entries(props)) {
      const s = (this.contract.deref(raw) ?? {}) as JsonObject;
      if (k === 'external_id') out[k] = XID;
      else if (s.format === 'date-time' && mode === 'setup') out[k] = SETUP_TIME;
      else if (/_id$/.test(k)) {
        // Another resource's id names a real one of the case, or is left out: a made-up one would rightly be refused.
        const ref = required.has(k) || (mode === 'drawn' && rng.chance(0.5)) ? this.idFor(k, steps, rng) : undefined;
        if (ref === undefined && required.has(k)) return undefined;
        out[k] = ref;
      }
    }
    return out;
  }

  /**
   * A Ref to an id for the field `<resource>_id`: a created resource of the case, or the first of its list, or else
   * that field of the first item of a list that carries it (template_id from a note).
   */
  private idFor(field: string, steps: Step[], rng: Rng): Ref | undefined {
    const collection = `/${field.replace(/_id$/, '')}s`;
    const creator = this.creator(collection);
    if (creator) {
      const mine = steps.findIndex((s) => s.op === creator.operationId && s.intent === 'setup');
      const from = mine >= 0 ? mine : this.create(creator, steps, rng);
      return from === undefined ? undefined : { from, pick: 'id' };
    }
    const list = this.listWith(collection, field);
    if (!list) return undefined;
    steps.push({ op: list.op.operationId, key: 'main', intent: 'setup' });
    return { from: steps.length - 1, pick: list.pick };
  }

  /** Does a schema (refs followed `depth` deep) have a property `field`? */
  private mentions(node: Json | undefined, field: string, depth: number): boolean {
    const n = this.contract.deref(node);
    if (!n || typeof n !== 'object' || depth < 0) return false;
    if (!Array.isArray(n) && n.properties && typeof n.properties === 'object' && field in n.properties) return true;
    return Object.values(n).some((v) => this.mentions(v as Json, field, depth - 1));
  }

  /** A list (GET without path ids) of `collection`, or else one whose items carry `field`. */
  private listWith(collection: string, field: string): { op: Operation; pick: string } | undefined {
    const lists = this.contract.operations.filter((o) => o.method === 'GET' && !o.template.includes('{'));
    const own = lists.find((o) => o.template === collection);
    if (own) return { op: own, pick: 'id' };
    const carrier = lists.find((o) => this.mentions(o.responses.get('200')?.node, field, 10));
    return carrier && { op: carrier, pick: field };
  }
}
