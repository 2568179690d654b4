// The answer checks that compare a request with its answer, on exchanges written by hand: a planted bad exchange is
// named with its rule, the good one is not.
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange } from './traffic.ts';

const judge = trafficJudge(new Contract(), Register.load(), 'documented');
const json = { 'content-type': 'application/json', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' };
const BASE = 'http://127.0.0.1:4010/ext-api/v1';
const rules = (rec: RecordedExchange) => new Set(judgeTraffic(rec, judge).violations.map((v) => v.ruleId));

const NOTE = '3f1c2a9e-8b7d-4c6e-9a01-2b3c4d5e6f70';
const note = (over: Record<string, unknown>) => ({
  id: NOTE,
  patient_id: '12',
  session_id: NOTE,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  content: 'S: ...',
  problems: [],
  procedures: [],
  icd10_codes: {},
  cpt_codes: {},
  ...over,
});
const getNote = (query: string, data: unknown): RecordedExchange => ({
  method: 'GET',
  url: `${BASE}/notes/${NOTE}${query}`,
  requestHeaders: { 'x-api-key': 'k' },
  status: 200,
  responseHeaders: json,
  responseBody: JSON.stringify({ data }),
});

describe('an answer against the request it answers', () => {
  it('a patient create without name answers a name built from first_name/last_name (PAT-003)', () => {
    const create = (name: string): RecordedExchange => ({
      method: 'POST',
      url: `${BASE}/patients`,
      requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
      requestBody: JSON.stringify({ first_name: 'Ann', last_name: 'Lee' }),
      status: 201,
      responseHeaders: json,
      responseBody: JSON.stringify({ data: { id: '12', name, first_name: 'Ann', last_name: 'Lee', created_at: '2026-01-01T00:00:00Z' } }),
    });
    expect(rules(create('Unnamed patient'))).toContain('PAT-003');
    expect(rules(create('Ann Lee')).has('PAT-003')).toBe(false);
    expect(rules(create('Lee')).has('PAT-003')).toBe(false);
  });

  it('a note detail embeds what include asks: both by default (NOTE-017), none for an empty value (NOTE-018)', () => {
    const both = note({ transcript: { text: 't' }, patient: { id: '12' } });
    expect(rules(getNote('', note({ transcript: { text: 't' } })))).toContain('NOTE-017');
    expect(rules(getNote('?include=transcript', both))).toContain('NOTE-017');
    expect(rules(getNote('?include=', both))).toContain('NOTE-018');
    for (const [q, data] of [
      ['', both],
      ['?include=transcript', note({ transcript: { text: 't' } })],
      ['?include=', note({})],
    ] as const) {
      const found = rules(getNote(q, data));
      expect([found.has('NOTE-017'), found.has('NOTE-018')], q).toEqual([false, false]);
    }
    // A value outside the documented list is not judged here.
    expect(rules(getNote('?include=codes', note({}))).has('NOTE-017')).toBe(false);
  });

  it('the body and codes come back whatever include says (NOTE-019)', () => {
    const { content: _, cpt_codes: __, ...bare } = note({});
    expect(rules(getNote('?include=', bare))).toContain('NOTE-019');
    expect(rules(getNote('', { ...bare, transcript: {}, patient: {} }))).toContain('NOTE-019');
    expect(rules(getNote('?include=', note({}))).has('NOTE-019')).toBe(false);
  });
});
