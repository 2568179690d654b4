// Which rules a profile judges: documented (the default) runs documented rules only; all adds the kit's assumptions.
// One reading for the suite's runner and for the judge of traffic made by others.
import type { Provenance } from '../spec/runtime/register.ts';
import type { Profile } from '../spec/runtime/schemas.ts';

export const ASSUMED_SKIP = 'assumed rule: runs with --profile all';

/** A check (named, response-level or request-level) of an assumed rule is skipped in the documented profile. */
export const skippedAsAssumed = (provenance: Provenance, profile: Profile) => provenance === 'assumed' && profile === 'documented';
