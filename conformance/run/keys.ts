// Which keys the run has: from the flags, or with --mock from the mock's /__mock/keys. Each key gets the shell
// variable its curl lines show instead of its value. The sessions the user lets the suite use travel with them: like
// a key, they are something only the user can grant.
import type { KeyRef } from '../target/http.ts';
import type { MockControl, MockKey } from '../target/mock-control.ts';
import type { Keys } from './model.ts';

export interface KeyInputs {
  key?: string;
  scopedKeys: Array<{ scopes: string[]; key: string }>;
  otherOrgKey?: string;
  expiredKey?: string;
  revokedKey?: string;
  /** --regenerable-session: a ready session with notes the suite may regenerate. */
  regenerableSession?: string;
  /** --not-ready-session: a session not ready for regeneration. */
  notReadySession?: string;
}

const ref = (role: string, value: string, envVar: string): KeyRef => ({ role, value, envVar });

/** The environment variable of each key role: what curl lines show instead of the key, and where a flag defaults from. */
export const KEY_VARS = {
  main: 'CLINICAL_RECORDS_KEY',
  otherOrg: 'CLINICAL_RECORDS_OTHER_ORG_KEY',
  expired: 'CLINICAL_RECORDS_EXPIRED_KEY',
  revoked: 'CLINICAL_RECORDS_REVOKED_KEY',
} as const;
const SCOPED_PREFIX = `${KEY_VARS.main}_`;

/** The variable of a key with these scopes, e.g. patients:read → CLINICAL_RECORDS_KEY_PATIENTS_READ. */
export const scopedVar = (scopes: string[]) =>
  `${SCOPED_PREFIX}${scopes
    .join('_')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}`;

/** The scopes a scoped-key variable names (resource:action pairs), or undefined when it names none. */
export function scopesOfVar(name: string): string[] | undefined {
  if (!name.startsWith(SCOPED_PREFIX) || Object.values(KEY_VARS).includes(name as never)) return undefined;
  const words = name.slice(SCOPED_PREFIX.length).toLowerCase().split('_');
  if (words.length % 2 || words.some((w) => !/^[a-z]+$/.test(w))) return undefined;
  return Array.from({ length: words.length / 2 }, (_, i) => `${words[2 * i]}:${words[2 * i + 1]}`);
}

export async function resolveKeys(inputs: KeyInputs, mock?: MockControl): Promise<Keys> {
  let fromMock: MockKey[] = [];
  if (mock) fromMock = await mock.keys();
  const active = fromMock.filter((k) => k.state === 'active');
  const mainMock = inputs.key ? fromMock.find((k) => k.key === inputs.key) : active.find((k) => k.scopes.includes('*'));
  const mainValue = inputs.key ?? mainMock?.key;
  if (!mainValue) throw new Error('no key: pass --key <key> (or --mock against a mock that lists a `*` key)');
  const org = mainMock?.organization_id;
  const sameOrg = (k: MockKey) => org !== undefined && k.organization_id === org;

  const scoped = inputs.scopedKeys.map((s) => ({ scopes: s.scopes, key: ref(`scoped:${s.scopes.join(',')}`, s.key, scopedVar(s.scopes)) }));
  for (const k of active.filter((k) => sameOrg(k) && !k.scopes.includes('*') && k.key !== mainValue))
    if (!scoped.some((s) => s.key.value === k.key))
      scoped.push({ scopes: k.scopes, key: ref(`scoped:${k.scopes.join(',')}`, k.key, scopedVar(k.scopes)) });

  const pick = (state: MockKey['state']) => fromMock.find((k) => sameOrg(k) && k.state === state)?.key;
  const other =
    inputs.otherOrgKey ??
    (
      active.find((k) => org !== undefined && k.organization_id !== org && k.scopes.includes('*')) ??
      active.find((k) => org !== undefined && k.organization_id !== org)
    )?.key;
  const expired = inputs.expiredKey ?? pick('expired');
  const revoked = inputs.revokedKey ?? pick('revoked');
  return {
    main: ref('main', mainValue, KEY_VARS.main),
    mainOrg: org,
    mainProvider: mainMock?.provider_id,
    scoped,
    otherOrg: other ? ref('other-org', other, KEY_VARS.otherOrg) : undefined,
    expired: expired ? ref('expired', expired, KEY_VARS.expired) : undefined,
    revoked: revoked ? ref('revoked', revoked, KEY_VARS.revoked) : undefined,
    sessions: { regenerable: inputs.regenerableSession, notReady: inputs.notReadySession },
  };
}
