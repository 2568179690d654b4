// The register says how each rule can be seen (spec/rules.yaml's `seen`); every documented `exchange` rule, one that
// one request and its answer show, has a function of the judge of one exchange that names it, but the few listed
// here with what is missing (the list must shrink, never hold a rule the judge names or one that is not `exchange`).
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { rulesTheJudgeNames } from './judged-rules.ts';

/** Documented exchange rules no judge function names yet, and what it would have to read. */
const NOT_YET: Record<string, string> = {
  'GEN-007': 'the upload request is multipart: no request check reads a multipart body',
  'XID-012': 'the upload form fields: no request check reads a multipart body',
  'XID-013': 'the upload form fields: no request check reads a multipart body',
  'DOC-010': 'the file types accepted: a multipart body read for its part type',
  'DOC-011': 'the 10 MB limit: a multipart body read for its size',
  'LIM-001': 'an upload past 10 MB answered 2xx: a multipart body read for its size',
};

const register = Register.load();
const named = rulesTheJudgeNames(new Contract(), register);
const exchangeRules = register.rules.filter((r) => r.provenance === 'documented' && r.seen === 'exchange');

describe('the register and the judge of one exchange', () => {
  it('names every documented exchange rule, but those listed as not yet judged', () => {
    const unnamed = exchangeRules.filter((r) => !named.has(r.id)).map((r) => r.id);
    expect(unnamed).toEqual(Object.keys(NOT_YET));
  });

  it('lists only documented exchange rules as not yet judged', () => {
    for (const id of Object.keys(NOT_YET)) expect(register.get(id), id).toMatchObject({ provenance: 'documented', seen: 'exchange' });
  });

  it('counts how many: most documented exchange rules are judged', () => {
    const judged = exchangeRules.filter((r) => named.has(r.id)).length;
    expect(judged + Object.keys(NOT_YET).length).toBe(exchangeRules.length);
    expect(judged / exchangeRules.length).toBeGreaterThan(0.6);
  });
});
