// Curl lines run as printed: the output names every variable they read and how to set it (with --mock, a key file
// under --out, mode 0600); set that way, a printed line gets the status the report claims; with a variable unset the
// shell stops, naming it, and nothing is sent (never an empty key, which would get a 401).
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/server.ts';
import { main } from '../cli.ts';
import { howToSet, toCurl, variablesIn } from './curl.ts';
import type { RunReport } from '../run/model.ts';
import { answer, is, startBrokenProxy } from '../testing/broken-proxy.ts';
import { startTestMock } from '../testing/check-file.ts';
import { type Ran, runProcess } from '../testing/run-process.ts';

/** Runs `script` in bash without any CLINICAL_RECORDS_* variable of ours; killed after 15 s. */
function bash(script: string): Promise<Ran> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLINICAL_RECORDS_')));
  return runProcess('bash', ['-c', script], { env, timeout: 15_000 });
}

describe('curl lines', () => {
  it('read each key as a variable that must be set (:?), naming what to set', () => {
    const curl = toCurl({
      method: 'GET',
      url: 'http://127.0.0.1:4010/ext-api/v1/patients',
      path: '/patients',
      headers: { 'X-API-Key': 'secret' },
      keyVar: 'CLINICAL_RECORDS_KEY_PATIENTS_READ',
    });
    expect(curl).toBe(
      `curl -sS -i -X GET 'http://127.0.0.1:4010/ext-api/v1/patients' -H "X-API-Key: \${CLINICAL_RECORDS_KEY_PATIENTS_READ:?set CLINICAL_RECORDS_KEY_PATIENTS_READ: a key with scopes patients:read}"`,
    );
    expect(variablesIn([curl, undefined, curl])).toEqual(['CLINICAL_RECORDS_KEY_PATIENTS_READ']);
    expect(howToSet(['CLINICAL_RECORDS_KEY', 'CLINICAL_RECORDS_OTHER_ORG_KEY'])).toEqual([
      {
        name: 'CLINICAL_RECORDS_KEY',
        holds: 'a key with full access (*)',
        set: "export CLINICAL_RECORDS_KEY='<a key with full access (*)>'",
      },
      {
        name: 'CLINICAL_RECORDS_OTHER_ORG_KEY',
        holds: 'a key of another organization',
        set: "export CLINICAL_RECORDS_OTHER_ORG_KEY='<a key of another organization>'",
      },
    ]);
  });
});

describe('a printed curl line, run as the output says', () => {
  let mock: RunningMock;
  let proxy: { origin: string; close(): Promise<void> };
  let sent = 0;
  const dir = mkdtempSync(join(tmpdir(), 'crc-curl-'));
  const lines: string[] = [];

  beforeAll(async () => {
    mock = await startTestMock();
    proxy = await startBrokenProxy(
      new URL(mock.url).origin,
      {
        name: 'provider by id answers 404',
        area: 'prv',
        rule: 'PRV-008',
        response: (res, req) => void (is(req, 'GET', /^\/providers\/[^/]+$/) && answer(res, 404, { error: 'Not found' })),
      },
      (req) => void (req.url.startsWith('/__mock') || sent++),
    );
    const argv = ['--url', `${proxy.origin}/ext-api/v1`, '--mock', '--only', 'missing_scope_forbidden'];
    const code = await main([...argv, '--reporter', 'console,json', '--out', dir], lines.push.bind(lines), lines.push.bind(lines));
    expect(code).toBe(1);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('gets the status the report claims, with the variables set as printed; unset, the shell stops and sends nothing', async () => {
    const out = lines.join('\n');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    const f = report.results
      .find((r) => r.name === 'missing_scope_forbidden')!
      .failures.find((x) => x.curl?.includes('CLINICAL_RECORDS_KEY_PATIENTS_READ:?'))!;
    expect(f.actual).toMatch(/^404 /);
    expect(out).toContain(`reproduce: ${f.curl}`);

    // The output says how to set what the lines read: one line to source, the variables named under it.
    const block = /set them first[^\n]*\n((?: {2}.*\n?)+)/.exec(out)![1]!;
    const setLines = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(setLines).toEqual([`  . '${join(dir, 'keys.env')}'`]);
    expect(block).toContain('# CLINICAL_RECORDS_KEY_PATIENTS_READ: a key with scopes patients:read');
    for (const name of variablesIn([f.curl])) expect(block).toContain(`# ${name}: `);
    expect(statSync(join(dir, 'keys.env')).mode & 0o777).toBe(0o600);
    expect(out).not.toContain(readFileSync(join(dir, 'keys.env'), 'utf8').split("'")[1]!);

    const ran = await bash(`${setLines.join('\n')}\n${f.curl}`);
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toMatch(/^HTTP\/1\.1 404 /);

    const before = sent;
    const unset = await bash(f.curl!);
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain(
      'CLINICAL_RECORDS_KEY_PATIENTS_READ: set CLINICAL_RECORDS_KEY_PATIENTS_READ: a key with scopes patients:read',
    );
    expect(sent).toBe(before);
  }, 30_000);
});
