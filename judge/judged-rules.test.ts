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
  'PAT-024': 'DELETE answers {success: true}: its body is judged under GEN-003',
  'APT-021': "the appointment create's 409: judged as XID-006 on the body",
  'DOC-010': 'the file types accepted: a multipart body read for its part type',
  'DOC-011': 'the 10 MB limit: a multipart body read for its size',
  'DOC-021': 'the documents list: judged under GEN-003 on its body',
  'REGEN-008': 'the 202 body: judged under GEN-003 (RegenerateAccepted is owned by no narrower rule at its root)',
  'REGEN-009': 'error bodies are judged under GEN-005, not the rule owning the response',
  'REGEN-010': 'error bodies are judged under GEN-005, not the rule owning the response',
  'RATE-003': "the 429 body's message: error bodies are judged under GEN-005",
  'RATE-004': "a 429's Retry-After: judged by rate_limit_headers under RATE-001",
  'ERR-002': 'error bodies are judged under GEN-005, not the rule owning the response',
  'ERR-005': 'error bodies are judged under GEN-005 (the status under XID-010, PRV-007)',
  'ERR-006': "the 409's message and existing: judged under GEN-005 and XID-006",
  'ERR-008': "a 429's body and Retry-After: judged under GEN-005 and RATE-001",
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
