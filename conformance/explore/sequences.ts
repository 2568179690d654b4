// Stateful cases: a resource's life, create → get → list → update → get → delete, then every way to reach it after
// the delete (get, update, delete, list lookup), each answer judged for what it must show; with another
// organization's key, its reads and writes of the resource in between. Ids and external_ids come from earlier answers.
import type { Contract, Operation } from '../../spec/runtime/contract.ts';
import { XID, type Case, type Ref, type Step } from './case.ts';
import type { CaseGenerator } from './generate.ts';
import type { Rng } from './prng.ts';
import type { Setup } from './setup.ts';
import { ValueDraw } from './values.ts';

interface Life {
  create: Operation;
  get?: Operation;
  list?: Operation;
  update?: Operation;
  remove: Operation;
  /** The item path's own parameter: patientId of /patients/{patientId}. */
  param: string;
}

/** Every resource a client creates and deletes, with the operations of its life, read from the contract. */
export function lives(contract: Contract, setup: Setup): Life[] {
  return contract.operations.flatMap((create) => {
    if (!setup.creator(create.template) || create !== setup.creator(create.template)) return [];
    /** The operation of `method` on one item of the collection: /patients/{patientId}, nothing deeper. */
    const at = (method: string) =>
      contract.operations.find(
        (o) =>
          o.method === method &&
          o.template.startsWith(`${create.template}/{`) &&
          !o.template.slice(create.template.length + 1).includes('/'),
      );
    const remove = at('DELETE')!;
    const list = contract.operations.find((o) => o.method === 'GET' && o.template === create.template);
    return [{ create, get: at('GET'), list, update: at('PATCH'), remove, param: /\{([^}]+)\}$/.exec(remove.template)![1]! }];
  });
}

export function lifeCase(
  life: Life,
  gen: CaseGenerator,
  setup: Setup,
  contract: Contract,
  index: number,
  rng: Rng,
  otherOrg: boolean,
): Case | undefined {
  const draw = new ValueDraw(contract, rng);
  const steps: Step[] = [];
  const parent = setup.pathValues(life.create, steps, rng);
  if (!parent) return undefined;
  const bodyOf = (op: Operation) => {
    if (!op.jsonBodyPointer) return { external_id: XID };
    const bindings = setup.bindings(op, steps, rng, 'drawn');
    return bindings && gen.drawBody(op, draw, bindings);
  };
  const created = bodyOf(life.create);
  if (!created) return undefined;
  const upload = life.create.jsonBodyPointer ? undefined : true;
  steps.push({
    op: life.create.operationId,
    path: parent,
    body: created,
    upload,
    key: 'main',
    intent: 'accept',
    assumed: draw.assumed || undefined,
  });
  const c = steps.length - 1;
  const item = { ...parent, [life.param]: { from: c, pick: 'id' } as Ref };
  const lookup =
    life.list && contract.queryParam(life.list, 'external_id') ? { external_id: { from: c, pick: 'external_id' } as Ref } : undefined;
  const at = (op: Operation | undefined, intent: Step['intent'], extra: Partial<Step> = {}) => {
    if (op)
      steps.push({
        op: op.operationId,
        path: op.template.includes('{') ? (op === life.list ? parent : item) : undefined,
        key: 'main',
        intent,
        ...extra,
      });
  };
  at(life.get, 'readable');
  if (lookup) at(life.list, 'listed', { query: lookup });
  if (otherOrg) {
    at(life.get, 'foreign', { key: 'otherOrg' });
    at(life.remove, 'foreign', { key: 'otherOrg' });
    // A 404 is not enough: the other organization's delete must not have happened (its effect names it).
    at(life.get, 'intact', { after: steps.length - 1 });
  }
  const update = life.update && bodyOf(life.update);
  if (update) {
    at(life.update, 'accept', { body: update, assumed: draw.assumed || undefined });
    at(life.get, 'readable');
  }
  at(life.remove, 'accept');
  // Each use after the delete names the delete: shrinking never drops it and keeps a read that merely succeeds.
  const after = steps.length - 1;
  at(life.get, 'gone', { after });
  if (update) at(life.update, 'gone', { body: update, after });
  at(life.remove, 'gone', { after });
  if (lookup) at(life.list, 'gone', { query: lookup, after });
  return {
    index,
    kind: 'stateful',
    op: life.create.operationId,
    label: `${life.create.template}: create → read → list → update → delete → use after delete`,
    steps,
  };
}
