// Cleanup's account of what was left behind: each resource once, with how many times it came back.
import { describe, expect, it } from 'vitest';
import { Cleanup } from './cleanup.ts';
import { Contract } from '../../spec/runtime/contract.ts';
import type { Exchange } from '../../judge/define.ts';

describe('Cleanup leftovers', () => {
  it('names a resource created without the run prefix once, however often the target answers with it', () => {
    const contract = new Contract();
    const cleanup = new Cleanup(contract, 'crc-run-');
    // Prism's static mock answers every create with the same example patient.
    const create = (seq: number): Exchange => ({
      seq,
      check: 'c',
      operation: contract.match('POST', '/patients'),
      request: { method: 'POST', url: 'http://x/ext-api/v1/patients', path: '/patients', headers: {} },
      response: { status: 201, headers: {}, text: '', json: { data: { id: '123', external_id: 'ehr-1' } }, mediaType: 'application/json' },
      ms: 1,
    });
    for (let i = 0; i < 80; i++) cleanup.observe(create(i));
    expect(cleanup.count).toBe(1);
    expect(cleanup.leftovers).toEqual(['created without the run prefix: /patients/123 (seen 80 times)']);
  });

  it("deletes what another organization's key created with that key (the main key would get a 404 and count it gone)", async () => {
    const contract = new Contract();
    const cleanup = new Cleanup(contract, 'crc-run-');
    const other = { role: 'other-org', value: 'other-secret', envVar: 'CLINICAL_RECORDS_OTHER_ORG_KEY' };
    const main = { role: 'main', value: 'main-secret', envVar: 'CLINICAL_RECORDS_KEY' };
    const create = (id: string, keyRole: string): Exchange => ({
      seq: 1,
      check: 'c',
      operation: contract.match('POST', '/patients'),
      request: { method: 'POST', url: 'http://x/ext-api/v1/patients', path: '/patients', headers: {}, keyRole },
      response: { status: 201, headers: {}, text: '', json: { data: { id, external_id: `crc-run-${id}` } }, mediaType: 'application/json' },
      ms: 1,
    });
    cleanup.deleteWith(other);
    cleanup.observe(create('1', 'main'));
    cleanup.observe(create('2', 'other-org'));
    const sent: Array<[string, string | undefined]> = [];
    const http = {
      send: async (_check: string, spec: { path: string; key?: { value: string } }) => {
        sent.push([spec.path, spec.key?.value]);
        return { response: { status: 200 } };
      },
    };
    await cleanup.run(http as never, main);
    expect(sent).toEqual([
      ['/patients/2', 'other-secret'],
      ['/patients/1', 'main-secret'],
    ]);
    expect(cleanup.removed).toBe(2);
  });
});
