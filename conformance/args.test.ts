// Keys from the environment: each key flag defaults to the variable its curl lines name, so a key need not appear in
// a process list or shell history; a flag still wins, and a missing key is a clear usage error.
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError, USAGE } from './args.ts';

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
