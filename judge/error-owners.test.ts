// The rules an error answer's defect breaks besides GEN-005 and RATE-001, on exchanges written by hand: each planted
// defect is named with the rule stating that response or part, a clean error answer with none.
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange } from './traffic.ts';

const judge = trafficJudge(new Contract(), Register.load(), 'documented');
const RATE = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795713368' };
const BASE = 'http://127.0.0.1:4010/ext-api/v1';
const REGEN = `${BASE}/sessions/3f1c2a9e-8b7d-4c6e-9a01-2b3c4d5e6f70/notes/regenerate`;
const LIMITED = 'Rate limit exceeded. Please retry after the window resets.';

const answer = (url: string, status: number, body: unknown, headers: Record<string, string> = {}): RecordedExchange => ({
  method: url === REGEN ? 'POST' : 'GET',
  url,
  requestHeaders: { 'x-api-key': 'k' },
  status,
  responseHeaders: { 'content-type': 'application/json', ...RATE, ...headers },
  responseBody: JSON.stringify(body),
});
const rules = (rec: RecordedExchange) => [...new Set(judgeTraffic(rec, judge).violations.map((v) => v.ruleId))].sort();

describe("the rules of an error answer's defect", () => {
  it('a 401 body not {error}: ERR-002, and on the regenerate endpoint REGEN-010 too', () => {
    expect(rules(answer(`${BASE}/patients`, 401, { message: 'no' }))).toEqual(['ERR-002', 'GEN-005']);
    expect(rules(answer(REGEN, 401, { message: 'no' }))).toEqual(['ERR-002', 'GEN-005', 'REGEN-010']);
    expect(rules(answer(`${BASE}/patients`, 401, { error: 'Invalid API key' }))).toEqual([]);
  });

  it("a regenerate's 400 not {error}: REGEN-009", () => {
    expect(rules({ ...answer(REGEN, 400, { message: 'bad' }), requestBody: '{"model":"x"}' })).toContain('REGEN-009');
  });

  it('a 429: its message (RATE-003, ERR-008) and its Retry-After (RATE-004, ERR-008)', () => {
    const ok = { 'retry-after': '30' };
    expect(rules(answer(`${BASE}/patients`, 429, { error: 'slow down' }, ok))).toEqual(['ERR-008', 'GEN-005', 'RATE-003']);
    expect(rules(answer(`${BASE}/patients`, 429, { error: LIMITED }))).toEqual(['ERR-008', 'RATE-001', 'RATE-004']);
    expect(rules(answer(`${BASE}/patients`, 429, { error: LIMITED }, ok))).toEqual([]);
  });

  it("a lookup's 404 not {error}: ERR-005; another 404's: GEN-005 alone", () => {
    expect(rules(answer(`${BASE}/patients?external_id=x`, 404, { message: 'none' }))).toEqual(['ERR-005', 'GEN-005']);
    expect(rules(answer(`${BASE}/patients/12`, 404, { message: 'none' }))).toEqual(['GEN-005']);
  });

  it("a create's 409 with another message: ERR-006 and XID-006", () => {
    const conflict = { error: 'duplicate', existing: { id: '12', external_id: 'x' } };
    const create = { ...answer(`${BASE}/patients`, 409, conflict), method: 'POST', requestBody: '{"name":"A","external_id":"x"}' };
    expect(rules({ ...create, requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' } })).toEqual([
      'ERR-006',
      'GEN-005',
      'XID-006',
    ]);
  });
});
