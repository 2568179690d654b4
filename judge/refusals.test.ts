// The checks of what a request's content calls for, on exchanges written by hand: each names its rule on the planted
// bad exchange and stays silent on the good one.
import { describe, expect, it } from 'vitest';
import { Contract } from '../spec/runtime/contract.ts';
import { Register } from '../spec/runtime/register.ts';
import { judgeTraffic, trafficJudge, type RecordedExchange } from './traffic.ts';

const judge = trafficJudge(new Contract(), Register.load(), 'documented');
const RATE = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '1795713368' };
const json = { 'content-type': 'application/json', ...RATE };
const BASE = 'http://127.0.0.1:4010/ext-api/v1';
const patient = { id: '12', name: 'Ann Lee', first_name: 'Ann', last_name: 'Lee', created_at: '2026-01-01T00:00:00Z' };

const post = (path: string, body: unknown, status: number, answer: unknown): RecordedExchange => ({
  method: 'POST',
  url: `${BASE}${path}`,
  requestHeaders: { 'x-api-key': 'k', 'content-type': 'application/json' },
  requestBody: body === undefined ? undefined : JSON.stringify(body),
  status,
  responseHeaders: json,
  responseBody: JSON.stringify(answer),
});
const rules = (rec: RecordedExchange) => judgeTraffic(rec, judge).violations.map((v) => `${v.side} ${v.ruleId}`);

describe('what a request calls for', () => {
  it('a create breaking a documented limit answered 2xx names the limit (LIM-002, LIM-003, LIM-004)', () => {
    expect(rules(post('/patients', { name: 'A', external_id: 'x'.repeat(256) }, 201, { data: patient }))).toContain('response LIM-002');
    expect(rules(post('/patients', { name: 'A', mrn: 'm'.repeat(65) }, 201, { data: patient }))).toContain('response LIM-003');
    const appt = { patient_id: '12', start_at: '2026-01-01T09:00:00Z', duration_minutes: 0 };
    expect(rules(post('/appointments', appt, 201, { data: {} }))).toContain('response LIM-004');
    // Refused, or within the limit: nothing of the limits.
    const refused = rules(
      post('/patients', { name: 'A', mrn: 'm'.repeat(65) }, 400, { error: 'Validation failed', details: { mrn: 'too long' } }),
    );
    expect(refused.filter((r) => r.includes('LIM-'))).toEqual([]);
    expect(rules(post('/patients', { name: 'A', external_id: 'x'.repeat(255), mrn: 'm'.repeat(64) }, 201, { data: patient }))).toEqual([]);
  });

  it('an mrn sent null or empty refused for it names PAT-010; refused for another field, nothing', () => {
    const named = { error: 'Validation failed', details: { mrn: 'must not be empty' } };
    expect(rules(post('/patients', { name: 'A', mrn: '' }, 400, named))).toEqual(['response PAT-010']);
    expect(rules(post('/patients', { name: 'A', mrn: null }, 400, named))).toEqual(['response PAT-010']);
    expect(rules(post('/patients', { name: 'A', mrn: null }, 400, { error: 'Validation failed', details: { name: 'taken' } }))).toEqual([]);
  });

  it('a regenerate without a body refused 400 names REGEN-005; with a malformed session id, nothing of it', () => {
    const path = '/sessions/3f1c2a9e-8b7d-4c6e-9a01-2b3c4d5e6f70/notes/regenerate';
    const bodiless = { ...post(path, undefined, 400, { error: 'Body required' }), requestHeaders: { 'x-api-key': 'k' } };
    expect(rules(bodiless)).toEqual(['response REGEN-005']);
    expect(rules({ ...bodiless, url: `${BASE}/sessions/not-a-uuid/notes/regenerate` })).not.toContain('response REGEN-005');
  });

  it('an operation answered 2xx outside the base path names VER-001, and the request VER-003', () => {
    const list = { data: [], meta: { page: 1, limit: 20, total_pages: 1 } };
    const outside: RecordedExchange = { ...post('/patients', undefined, 200, list), method: 'GET', url: 'http://127.0.0.1:4010/patients' };
    expect(rules(outside)).toEqual(['request VER-003', 'response VER-001']);
    expect(rules({ ...outside, status: 404, responseBody: '{"error":"Not found"}' })).toEqual(['request VER-003']);
    expect(rules({ ...outside, url: `${BASE}/patients` })).toEqual([]);
  });
});
