// Why a check cannot run on this target, said in its skipped result: a rule the profile assumes, a write under
// --read-only, or what it needs and the run lacks (the mock's control API, a webhook receiver, a key).
import { ASSUMED_SKIP, skippedAsAssumed } from '../../judge/profile.ts';
import type { Register } from '../../spec/runtime/register.ts';
import type { Profile } from '../../spec/runtime/schemas.ts';
import type { CheckDef, Keys } from './model.ts';

/** What the run has that checks may need. */
export interface RunHas {
  register: Register;
  profile: Profile;
  readOnly: boolean;
  mock: boolean;
  receiver: boolean;
  /** Why there is no receiver, when one was wanted. */
  receiverNote?: string;
  keys: Keys;
}

export function skipReason(c: CheckDef, has: RunHas): string | undefined {
  const rule = has.register.resolve(c.rule);
  if (skippedAsAssumed(rule.provenance, has.profile)) return ASSUMED_SKIP;
  if (c.needs?.write && has.readOnly) return '--read-only: the check writes';
  if (c.needs?.mock && !has.mock) return 'needs --mock (the mock control API)';
  if (c.needs?.receiver && !has.receiver) return has.receiverNote ?? 'needs --webhook-receiver <public_url> --webhook-port <n> (or --mock)';
  const { keys } = has;
  for (const k of c.needs?.keys ?? []) {
    if (k === 'scoped' && !keys.scoped.length) return 'needs --scoped-key <scope,...>=<key>';
    if (k === 'otherOrg' && !keys.otherOrg) return 'needs --other-org-key';
    if (k === 'expired' && !keys.expired) return 'needs --expired-key';
    if (k === 'revoked' && !keys.revoked) return 'needs --revoked-key';
  }
  return undefined;
}
