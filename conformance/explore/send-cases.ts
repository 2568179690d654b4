// Sending the generated cases, a few in flight (up to --concurrency), each judged as its answers come; a case whose
// sending failed is counted by its error. The outcomes are kept in plan order, whatever order the answers came in.
import type { Http } from '../target/http.ts';
import type { Case } from './case.ts';
import { runCase, type CaseRun, type ExecEnv } from './execute.ts';
import type { caseJudge, Found, Reach } from './judge-run.ts';

export type CaseJudge = ReturnType<typeof caseJudge>;

/** Sends cases with the run's client and keys, every external_id under the run prefix, counting the requests made. */
export class CaseSender {
  requests = 0;
  private xids = 0;

  constructor(private readonly env: Omit<ExecEnv, 'externalId'> & { prefix: string }) {}

  async send(c: Case): Promise<CaseRun> {
    const { http, contract, keys, signal, prefix } = this.env;
    const run = await runCase(c, { http, contract, keys, signal, externalId: () => `${prefix}x${++this.xids}` });
    this.requests += run.exchanges.length;
    return run;
  }
}

export interface CaseOutcome {
  c: Case;
  run: CaseRun;
  found: Found[];
  reached: Reach[];
}

interface Sent {
  /** One per case, in plan order: undefined for a case not sent (the run stopped) or whose sending failed. */
  outcomes: Array<CaseOutcome | undefined>;
  /** Why sending cases failed, each with how many cases. */
  errors: Map<string, number>;
  /** When the first failure was found, in ms from `started`. */
  firstFailureMs?: number;
}

export async function sendCases(
  cases: Case[],
  sender: CaseSender,
  judge: CaseJudge,
  env: { http: Http; concurrency: number; signal?: AbortSignal; started: number },
): Promise<Sent> {
  const outcomes: Sent['outcomes'] = new Array(cases.length);
  const errors = new Map<string, number>();
  let firstFailureMs: number | undefined;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(env.concurrency, cases.length)) }, async () => {
      // A target that stopped answering (the client's breaker, http.ts) ends the exploration too.
      while (next < cases.length && !env.signal?.aborted && !env.http.silence) {
        const i = next++;
        const c = cases[i]!;
        const run = await sender.send(c).catch((e: Error) => void errors.set(e.message, (errors.get(e.message) ?? 0) + 1));
        if (!run) continue;
        const judged = judge(c, run);
        if (judged.found.length && firstFailureMs === undefined) firstFailureMs = performance.now() - env.started;
        outcomes[i] = { c, run, ...judged };
      }
    }),
  );
  return { outcomes, errors, firstFailureMs };
}
