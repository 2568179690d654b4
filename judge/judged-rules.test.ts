// The register says how each rule can be seen (spec/rules.yaml's `seen`); every documented `exchange` rule, one that
// one request and its answer show, has a function of the judge of one exchange that names it. A rule one exchange
// cannot show is marked so in the register (`seen: sequence`, ...), with why in a comment above it.
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { rulesTheJudgeNames } from './judged-rules.ts';

const register = Register.load();
const named = rulesTheJudgeNames(new Contract(), register);
const exchangeRules = register.rules.filter((r) => r.provenance === 'documented' && r.seen === 'exchange');

describe('the register and the judge of one exchange', () => {
  it('names every documented exchange rule', () => {
    expect(exchangeRules.filter((r) => !named.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(exchangeRules.length).toBeGreaterThan(100);
  });

  it('names only rules of the register', () => {
    expect([...named.keys()].filter((id) => !register.get(id))).toEqual([]);
  });
});
