// What runner.ts hands the Dredd process (as JSON on its command line; the key travels in the environment), and the
// line each run ends with.
import type { ReporterName } from './args.ts';

export interface ProcessInput {
  url: string;
  bundle: string;
  mock: boolean;
  reporters: ReporterName[];
  /** The run's private folder, where Dredd's file reporters write (runner.ts copies them, made safe, into --out). */
  workDir: string;
  timeoutMs: number;
}

/** The last line of every run; the runner prints one itself when the Dredd process ends without it. */
export const VERDICT_PREFIX = 'dredd: verdict: ';
