// Sends a case's steps in order, resolving each reference from the answer it points at. A step whose reference
// cannot be resolved (a setup that failed, an empty list) ends the case there: what was sent is still judged.
import type { Contract } from '../../spec/runtime/contract.ts';
import { tinyPdf } from '../run/fixtures.ts';
import { TransportError, type Http, type KeyRef, type RequestSpec } from '../target/http.ts';
import type { Exchange, SentRequest } from '../../judge/define.ts';
import type { Keys } from '../run/model.ts';
import { isRef, substitute, XID, type Case, type KeyRole, type Ref, type Step } from './case.ts';

/** The label of exchanges exploration sends (the runner's own response-check pass leaves them to exploration). */
export const EXPLORE_SENDER = 'explore';

/** A key no deployment issues: the wrong-key cases send it. */
const WRONG_KEY = 'crc-explore-not-a-key-0000000000';

export interface CaseRun {
  /** One per step sent, in order (fewer than the steps when the case ended early). */
  exchanges: Exchange[];
  /** Why the case ended before its last step, if it did. */
  ended?: string;
  /** The step the target gave no answer to (a reset, a timeout, an answer too large), and what happened. */
  unanswered?: { step: number; what: string; request?: SentRequest };
}

export interface ExecEnv {
  http: Http;
  contract: Contract;
  keys: Keys;
  /** A fresh external_id under the run prefix. */
  externalId(): string;
  signal?: AbortSignal;
}

const dataOf = (ex: Exchange | undefined): unknown => {
  const d = (ex?.response.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(d) ? d[0] : d;
};

function keyFor(role: KeyRole, keys: Keys): Pick<RequestSpec, 'key' | 'rawKey'> {
  if (role === 'none') return {};
  if (role === 'invalid') return { rawKey: WRONG_KEY };
  return { key: (role === 'otherOrg' ? keys.otherOrg : keys.main) as KeyRef };
}

export async function runCase(c: Case, env: ExecEnv): Promise<CaseRun> {
  const exchanges: Exchange[] = [];
  /** external_ids made for this run of the case, per step: a lookup step reads the one its create sent. */
  const sentXids = new Map<number, string>();
  const resolve = (v: unknown, stepIndex: number): unknown => {
    if (v === XID) {
      const x = env.externalId();
      sentXids.set(stepIndex, x);
      return x;
    }
    if (!isRef(v)) return v;
    const r = v as Ref;
    const got =
      (dataOf(exchanges[r.from]) as Record<string, unknown> | undefined)?.[r.pick] ??
      (r.pick === 'external_id' ? sentXids.get(r.from) : undefined);
    if (typeof got !== 'string' && typeof got !== 'number') throw new Unresolved(`step ${r.from + 1} gave no ${r.pick}`);
    return String(got);
  };
  for (const [i, step] of c.steps.entries()) {
    let spec: RequestSpec;
    try {
      spec = requestOf(step, i, env, resolve);
    } catch (e) {
      if (e instanceof Unresolved) return { exchanges, ended: e.message };
      throw e;
    }
    try {
      exchanges.push(await env.http.send(EXPLORE_SENDER, spec, env.signal));
    } catch (e) {
      // No answer is an outcome of the step (its check fails on it), not of the run: the case ends there.
      if (!(e instanceof TransportError) || env.signal?.aborted) throw e;
      return { exchanges, ended: e.message, unanswered: { step: i, what: e.message, request: e.request } };
    }
  }
  return { exchanges };
}

class Unresolved extends Error {}

function requestOf(step: Step, i: number, env: ExecEnv, resolve: (v: unknown, i: number) => unknown): RequestSpec {
  const op = env.contract.byId(step.op);
  if (step.key === 'otherOrg' && !env.keys.otherOrg) throw new Unresolved('no key of another organization');
  const path = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(resolve(step.path?.[name], i))));
  const query = step.query && Object.fromEntries(Object.entries(step.query).map(([k, v]) => [k, resolve(v, i) as string | number]));
  const body = step.body && (substitute(step.body, (v) => resolve(v, i)) as Record<string, unknown>);
  const spec: RequestSpec = { method: op.method, path, query, ...keyFor(step.key, env.keys) };
  if (step.upload)
    return {
      ...spec,
      form: {
        fields: Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, String(v)])),
        file: { name: 'explore.pdf', type: 'application/pdf', bytes: tinyPdf('Exploration test document') },
      },
    };
  return body ? { ...spec, json: body } : spec;
}
