// The documented profile judges only what the source document states: an implementation that differs from the mock
// only where the document leaves room (extra response fields, meta.total, error.code, a charset on JSON, an HTTP-date
// Retry-After, null for unset fields, PATCH ignoring any external_id, no bounds on name and search, any address object,
// patients newest first, an upload answering processing in its own words, /notes/export without a default format, as
// a bare array or labelled application/ndjson, a documents list refusing any query parameter but external_id) passes it, while
// --profile all still judges the kit's reading and fails it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { runSuite } from '../run/runner.ts';
import { SchemaValidator } from '../../spec/runtime/schemas.ts';
import { relaxBundle } from '../../spec/runtime/relax.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import { BodyGenerator } from '../data/datagen.ts';
import { startBrokenProxy } from './broken-proxy.ts';
import { allowedVariant, readingsMet } from './allowed-variants.ts';
import { failureLines, startTestMock, suiteOptions } from './check-file.ts';
import type { JsonObject } from '../../spec/runtime/json-pointer.ts';

let mock: RunningMock;
let proxy: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  mock = await startTestMock();
  proxy = await startBrokenProxy(new URL(mock.url).origin, allowedVariant);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

const viaProxy = () => `${proxy.origin}${new URL(mock.url).pathname}`;

describe('an implementation that uses the room the document leaves', () => {
  it('passes the documented profile', async () => {
    const { report } = await runSuite({ ...suiteOptions(viaProxy()), profile: 'documented' });
    expect(failureLines(report)).toEqual([]);
    // Every reading was met by the run: the pass is not for want of a request that would show it.
    expect(Object.entries(readingsMet).filter(([, n]) => n === 0)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(30);
    // The response checks of the kit's readings do not run in the documented profile.
    for (const name of ['status_code_conformance', 'not_a_server_error'])
      expect(report.results.find((r) => r.name === name)?.reason, name).toMatch(/assumed rule/);
    expect(report.cleanup.leftovers).toEqual([]);
  }, 120_000);

  it('fails --profile all on the kit’s readings: closed objects (GEN-011) and the full schemas (GEN-003)', async () => {
    const { report } = await runSuite({ ...suiteOptions(viaProxy()), only: ['responses'], profile: 'all' });
    const failed = new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.ruleId));
    expect([...failed]).toEqual(expect.arrayContaining(['GEN-011', 'GEN-003']));
  }, 120_000);
});

describe('the documented-profile schemas, derived from the marks', () => {
  const contract = new Contract();
  const documented = new SchemaValidator(contract.doc, 'documented');
  const all = new SchemaValidator(contract.doc, 'all');
  const both = (pointer: string, value: unknown) => [
    documented.validate(pointer, value).length === 0,
    all.validate(pointer, value).length === 0,
  ];

  it('relax only the keywords a mark lists (x-assumption-keywords), the rest of the node stays', () => {
    expect(both('#/components/schemas/Error', { error: 'Not found', code: 'E404' })).toEqual([true, false]);
    expect(both('#/components/schemas/Error', { code: 'E404' })).toEqual([false, false]); // `error` is documented
    expect(both('#/components/schemas/PageMeta', { page: 1, limit: 20, total_pages: 1, total: 3 })).toEqual([true, false]);
    expect(both('#/components/schemas/PageMeta', { page: 'one', limit: 20, total_pages: 1 })).toEqual([false, false]);
    expect(both('#/components/headers/Retry-After/schema', 'Wed, 21 Oct 2026 07:28:00 GMT')).toEqual([true, false]);
    expect(both('#/components/headers/X-RateLimit-Reset/schema', 'Wed, 21 Oct 2026 07:28:00 GMT')).toEqual([true, false]);
  });

  it('judge the ISO 8601 shape of a date-time in the documented profile and RFC 3339 with --profile all', () => {
    expect(both('#/components/schemas/DateTime', '2026-11-02T16:05:12.345Z')).toEqual([true, true]);
    expect(both('#/components/schemas/DateTime', '2026-11-02T16:05:12')).toEqual([true, false]); // no offset
    expect(both('#/components/schemas/DateTime', '2026-11-02T16:05')).toEqual([true, false]); // no seconds
    expect(both('#/components/schemas/DateTime', 'yesterday')).toEqual([false, false]);
    expect(both('#/components/schemas/DateTime', '02/11/2026 16:05')).toEqual([false, false]);
  });

  it('let a field of a wholly marked object be null (which fields are set is the kit’s reading), not of a documented one', () => {
    const appt = contract.resolve('#/components/schemas/Appointment/examples/0') as JsonObject;
    expect(both('#/components/schemas/Appointment', { ...appt, visit_type: null })).toEqual([true, false]);
    expect(both('#/components/schemas/Address', { line1: '1 Navy Way', line2: null })).toEqual([true, false]);
    // "Inner structure of address: not shown": any object, whatever its fields hold.
    expect(both('#/components/schemas/Address', { line1: 12345, unit: { floor: 3 } })).toEqual([true, false]);
    expect(both('#/components/schemas/Address', 'Arlington')).toEqual([false, false]);
    // "Input fields of repeat_rule on create: not shown": any object.
    expect(both('#/components/schemas/RepeatRule', { frequency: '', interval: '2' })).toEqual([true, false]);
    expect(both('#/components/schemas/RepeatRule', 'weekly')).toEqual([false, false]);
    // "Further parameters and response layout of /notes/export: not shown": a bare array too.
    const exportJson = '#/paths/~1notes~1export/get/responses/200/content/application~1json/schema';
    expect(both(exportJson, [])).toEqual([true, false]);
    expect(both(exportJson, { data: [] })).toEqual([true, true]);
    expect(both('#/components/schemas/Error', { error: null })).toEqual([false, false]);
  });

  it('accept any external_id on PATCH (silently ignored) and an empty name only in the documented profile', () => {
    // Any string is ignored in both profiles (XID-005, XID-017); only the kit refuses another JSON type.
    expect(both('#/components/schemas/PatientUpdate', { external_id: 'x'.repeat(256) })).toEqual([true, true]);
    expect(both('#/components/schemas/AppointmentUpdate', { external_id: '' })).toEqual([true, true]);
    expect(both('#/components/schemas/PatientUpdate', { external_id: 42 })).toEqual([true, false]);
    expect(both('#/components/schemas/PatientCreate', { name: '' })).toEqual([true, false]);
    // Request bodies stay closed in both profiles (the document says an unknown field is a 400), and a name that
    // breaks only the kit's minLength is a case for --profile all alone.
    const cases = new BodyGenerator(contract).invalid('#/components/schemas/PatientCreate', { name: 'A' }, () => ({}));
    expect(cases.find((c) => c.kind === 'unknown-property')?.assumed).toBe(false);
    expect(cases.find((c) => c.field === 'name' && c.kind === 'out-of-bounds')?.assumed).toBe(true);
    expect(cases.find((c) => c.field === 'first_name' && c.kind === 'out-of-bounds')?.assumed).toBe(false);
  });

  it('keep what the document states inside a marked node: the status enum, the note body and codes, the extract data', () => {
    expect(both('#/components/schemas/AppointmentStatus', 'FOO')).toEqual([false, false]); // APT-011
    const at = '2026-11-02T16:05:12.345Z';
    const id = '2c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
    const note = { id, patient_id: '7281', session_id: id, created_at: at, updated_at: at, content: 'Body' } as JsonObject;
    Object.assign(note, { problems: [], procedures: [], icd10_codes: {}, cpt_codes: {} });
    expect(both('#/components/schemas/NoteDetail', note)).toEqual([true, true]);
    const { content: _c, ...noBody } = note;
    expect(both('#/components/schemas/NoteDetail', noBody)).toEqual([false, false]); // NOTE-019
    expect(both('#/components/schemas/NoteDetail', { ...note, content: null })).toEqual([false, false]);
    const { problems: _p, ...noProblems } = note;
    expect(both('#/components/schemas/NoteDetail', noProblems)).toEqual([true, false]);
    const doc = contract.resolve('#/components/schemas/Document/examples/0') as JsonObject;
    expect(both('#/components/schemas/ExtractResult', { data: doc })).toEqual([true, false]); // "may also carry"
    expect(both('#/components/schemas/ExtractResult', { success: true, message: 'ok' })).toEqual([false, false]);
    expect(both('#/components/schemas/Error', { error: '' })).toEqual([true, false]); // ERR-016 is the kit's
  });

  it('leave nodes without a mark untouched', () => {
    const unmarked = (contract.doc.components as JsonObject).schemas as JsonObject;
    expect((relaxBundle(unmarked.PatientIdValue!) as JsonObject).pattern).toBe('^\\d+$');
  });
});
