// What exploration sends: a case is a short sequence of steps (setup, then what is judged), each one request of an
// operation. Values an earlier answer gives (an id, an external_id) are references, resolved as the case runs; the
// external_ids a case creates are fresh on every run of it (shrinking re-runs a case), always under the run prefix.
export type Kind = 'positive' | 'negative' | 'stateful' | 'auth';

/** A value read from step `from`'s answer: data[pick], or data[0][pick] for a list. */
export interface Ref {
  from: number;
  pick: string;
}

export type KeyRole = 'main' | 'none' | 'invalid' | 'otherOrg';

/**
 * What a step is sent for, i.e. which exploration check judges its answer beyond the response checks: setup (none),
 * accept (positive data), reject (negative data), refuse (no or a wrong key), readable and listed (a created resource),
 * gone (a deleted one), foreign (another organization's).
 */
export type Intent = 'setup' | 'accept' | 'reject' | 'refuse' | 'readable' | 'listed' | 'gone' | 'foreign' | 'intact';

export interface Step {
  op: string;
  path?: Record<string, string | Ref>;
  query?: Record<string, string | number | Ref>;
  /** A JSON body, or an upload's form fields (upload). */
  body?: Record<string, unknown>;
  upload?: boolean;
  key: KeyRole;
  intent: Intent;
  /** The step's values rest on a bound or an enum only the kit assumed: the documented profile excuses a 4xx. */
  assumed?: boolean;
  /** The step whose effect this one judges (the delete a use-after-delete follows): it stays while this one does. */
  after?: number;
  /** A negative step: the one violation it carries (a top-level field shrinking must keep), and what it is. */
  violation?: { field: string; label: string };
}

export interface Case {
  index: number;
  kind: Kind;
  /** The operation the case explores (its judged step's). */
  op: string;
  label: string;
  steps: Step[];
}

/** Stands for a fresh external_id of the run (`crc-<runid>-x<n>`), made when the step is sent. */
export const XID = '\u0000xid';

export const isRef = (v: unknown): v is Ref =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Ref).from === 'number' && typeof (v as Ref).pick === 'string';

/** Does the step read an answer of step `j`, or judge its effect? */
export const needs = (step: Step, j: number): boolean =>
  step.after === j || [step.path, step.query, step.body].some((bag) => Object.values(bag ?? {}).some((v) => isRef(v) && v.from === j));

/** A value with every reference and fresh external_id in it replaced by what `by` gives for it. */
export function substitute(v: unknown, by: (placeholder: Ref | typeof XID) => unknown): unknown {
  if (v === XID || isRef(v)) return by(v as Ref | typeof XID);
  if (Array.isArray(v)) return v.map((x) => substitute(x, by));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, by)]));
  return v;
}

/** A body with its references and fresh external_ids replaced by values of their form, for validation. */
export const concrete = (body: Record<string, unknown>) => substitute(body, (v) => (v === XID ? 'crc-x' : '1'));
