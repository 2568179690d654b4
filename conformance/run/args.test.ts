// Keys from the environment: each key flag defaults to the variable its curl lines name, so a key need not appear in
// a process list or shell history; a flag still wins, and a missing key is a clear usage error.
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError, USAGE } from './args.ts';
import { main } from '../cli.ts';

const URL_ = ['--url', 'https://staging.example.test/ext-api/v1'];

describe('keys from the environment', () => {
  it('--key, --other-org-key, --expired-key and --revoked-key default to their variables', () => {
    const o = parseCli(URL_, {
      CLINICAL_RECORDS_KEY: 'main-key',
      CLINICAL_RECORDS_OTHER_ORG_KEY: 'other-key',
      CLINICAL_RECORDS_EXPIRED_KEY: 'expired-key',
      CLINICAL_RECORDS_REVOKED_KEY: 'revoked-key',
    });
    expect([o.key, o.otherOrgKey, o.expiredKey, o.revokedKey]).toEqual(['main-key', 'other-key', 'expired-key', 'revoked-key']);
  });

  it('a flag wins over its variable; an empty variable counts as unset', () => {
    const o = parseCli([...URL_, '--key', 'flag-key'], { CLINICAL_RECORDS_KEY: 'env-key', CLINICAL_RECORDS_OTHER_ORG_KEY: '' });
    expect(o.key).toBe('flag-key');
    expect(o.otherOrgKey).toBeUndefined();
  });

  it('scoped keys come from CLINICAL_RECORDS_KEY_<SCOPES> variables, and --scoped-key <scopes> alone reads one', () => {
    const env = {
      CLINICAL_RECORDS_KEY: 'k',
      CLINICAL_RECORDS_KEY_PATIENTS_READ: 'pr',
      CLINICAL_RECORDS_KEY_NOTES_READ_PROVIDERS_READ: 'np',
      CLINICAL_RECORDS_KEY_ODD: 'x',
    };
    expect(parseCli(URL_, env).scopedKeys).toEqual([
      { scopes: ['notes:read', 'providers:read'], key: 'np' },
      { scopes: ['patients:read'], key: 'pr' },
    ]);
    expect(parseCli([...URL_, '--scoped-key', 'patients:read'], env).scopedKeys.filter((s) => s.key === 'pr')).toHaveLength(1);
    expect(() => parseCli([...URL_, '--scoped-key', 'documents:write'], env)).toThrow(/\$CLINICAL_RECORDS_KEY_DOCUMENTS_WRITE is not set/);
  });

  it('no key anywhere is a usage error naming the variable', () => {
    expect(() => parseCli(URL_, {})).toThrow(UsageError);
    expect(() => parseCli(URL_, {})).toThrow(/\$CLINICAL_RECORDS_KEY/);
  });

  it('--help says where each key defaults from, and documents --baseline', () => {
    for (const v of [
      '$CLINICAL_RECORDS_KEY',
      '$CLINICAL_RECORDS_OTHER_ORG_KEY',
      '$CLINICAL_RECORDS_EXPIRED_KEY',
      '$CLINICAL_RECORDS_REVOKED_KEY',
      '--baseline <report.json>',
    ])
      expect(USAGE).toContain(v);
    expect(parseCli([...URL_, '--baseline', 'old/report.json'], { CLINICAL_RECORDS_KEY: 'k' }).baseline).toBe('old/report.json');
  });
});

describe('sessions the suite may use', () => {
  const env = { CLINICAL_RECORDS_KEY: 'k' };
  const ID = '3f0c6a2e-8d1b-4c5e-9a7f-2b4d6e8f0a1c';
  const OTHER = 'b7e1d2c3-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

  it('--regenerable-session and --not-ready-session take session ids (UUIDs)', () => {
    const o = parseCli([...URL_, '--regenerable-session', ID, '--not-ready-session', OTHER.toUpperCase()], env);
    expect([o.regenerableSession, o.notReadySession]).toEqual([ID, OTHER.toUpperCase()]);
    expect(parseCli(URL_, env).regenerableSession).toBeUndefined();
  });

  it('anything else is a usage error (exit 2) naming the flag and the value', () => {
    for (const [flag, bad] of [
      ['--regenerable-session', 'not-a-uuid'],
      ['--regenerable-session', `${ID}x`],
      ['--not-ready-session', '12345'],
      ['--not-ready-session', ''],
    ]) {
      expect(() => parseCli([...URL_, flag!, bad!], env)).toThrow(UsageError);
      expect(() => parseCli([...URL_, flag!, bad!], env)).toThrow(new RegExp(`${flag} must be a session id \\(a UUID\\), got "${bad}"`));
    }
    expect(() => parseCli([...URL_, '--regenerable-session'], env)).toThrow(UsageError);
    expect(() => parseCli([...URL_, '--regenerable-session', ID, '--not-ready-session', ID], env)).toThrow(/the same session/);
  });

  it('the command exits 2 on a bad session id, saying why, before it sends anything', async () => {
    const errors: string[] = [];
    const code = await main(
      [...URL_, '--key', 'k', '--regenerable-session', 'session-1'],
      () => undefined,
      (s) => errors.push(s),
    );
    expect(code).toBe(2);
    expect(errors.join('\n')).toMatch(/--regenerable-session must be a session id \(a UUID\), got "session-1"/);
  });

  it('--help documents both flags', () => {
    expect(USAGE).toMatch(/--regenerable-session <id> +a ready session with notes the suite may regenerate/);
    expect(USAGE).toMatch(/--not-ready-session <id> +a session not ready for regeneration/);
  });
});

describe('--min-coverage', () => {
  it('takes a percentage from 0 to 100 (a trailing % allowed), in a live run and beside --har', () => {
    const live = (v: string) => parseCli(['--url', 'http://127.0.0.1:4010/ext-api/v1', '--key', 'k', '--min-coverage', v], {});
    expect(live('80').minCoverage).toBe(80);
    expect(live('72.5%').minCoverage).toBe(72.5);
    expect(parseCli(['--har', 'x.har', '--min-coverage', '37'], {}).minCoverage).toBe(37);
    expect(parseCli(['--har', 'x.har'], {}).minCoverage).toBeUndefined();
    for (const bad of ['101', '1e2', 'most', '']) expect(() => live(bad)).toThrow(/--min-coverage must be a percentage from 0 to 100/);
  });
});
