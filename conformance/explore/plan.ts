// The run's plan: case i explores slot i mod (number of slots), a slot being one operation and one kind of case, so
// every operation and kind comes round in turn; what the case draws comes from the stream of (seed, i) alone. The
// plan holds as many cases as fit in the request budget, counted from the cases' steps before anything is sent, so
// the same seed and budget give the same cases whatever the target answers, and shards split one plan.
import type { Contract } from '../../spec/runtime/contract.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import type { Case, Kind } from './case.ts';
import { CaseGenerator } from './generate.ts';
import { caseRng } from './prng.ts';
import { Setup } from './setup.ts';
import { lifeCase, lives } from './sequences.ts';
import { queryViolations } from './query-violations.ts';

interface Slot {
  kind: Kind;
  op: string;
}

/** Writes exploration never sends with a valid key: they change what the run did not create (a session's note). */
const foreignWrite = (setup: Setup, op: { method: string; template: string }) =>
  op.method !== 'GET' && op.template.includes('{') && !setup.ownable(op.template);

export class Plan {
  readonly slots: Slot[];
  private readonly gen: CaseGenerator;
  private readonly setup: Setup;
  private readonly lives: ReturnType<typeof lives>;

  constructor(
    private readonly contract: Contract,
    profile: Profile,
    private readonly otherOrg: boolean,
  ) {
    this.gen = new CaseGenerator(contract, profile);
    this.setup = new Setup(contract);
    const slots: Slot[] = [];
    this.lives = lives(contract, this.setup);
    for (const life of this.lives) slots.push({ kind: 'stateful', op: life.create.operationId });
    for (const op of contract.operations) {
      const negative = !!op.jsonBodyPointer || (profile === 'all' && queryViolations(contract, op).length > 0);
      const kinds: Kind[] = foreignWrite(this.setup, op) ? ['auth'] : negative ? ['positive', 'negative', 'auth'] : ['positive', 'auth'];
      for (const kind of kinds) slots.push({ kind, op: op.operationId });
    }
    this.slots = slots;
  }

  /** Case `index` of the run seeded `seed` (undefined: its slot has nothing to send this time, e.g. no negative left). */
  caseAt(seed: number, index: number): Case | undefined {
    const slot = this.slots[index % this.slots.length]!;
    const rng = caseRng(seed, index);
    if (slot.kind === 'stateful') {
      const life = this.lives.find((l) => l.create.operationId === slot.op)!;
      return lifeCase(life, this.gen, this.setup, this.contract, index, rng, this.otherOrg);
    }
    return this.gen.single(slot.kind, slot.op, index, rng);
  }

  /** The cases of a run (those `allowed`): in index order until their steps would pass `budget` requests. */
  cases(seed: number, budget: number, allowed: (c: Case) => boolean = () => true): Case[] {
    const out: Case[] = [];
    let requests = 0;
    // Past a few rounds of slots with nothing allowed (--read-only leaves only reads), nothing more will be.
    for (let i = 0, last = 0; i - last < this.slots.length * 4; i++) {
      const c = this.caseAt(seed, i);
      if (!c || !allowed(c)) continue;
      last = i;
      if (requests + c.steps.length > budget) break;
      requests += c.steps.length;
      out.push(c);
    }
    return out;
  }
}
