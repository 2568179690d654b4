// What the service's asynchronous work took in this run, beside the document's words of time (issue 39, item 5).
// "Roughly 10 to 30 seconds" and "typical duration is under a minute" are no bounds: a check waits the suite's own
// generous limit (durations.ts) and fails only on a bound the document gives, so how long things really took is
// reported here, as a table in every report, for the reader to weigh, never as a verdict.
import type { Wait } from '../run/durations.ts';

/** The waits whose only words are words of time (delivery's figures are bounds, judged by the EVT checks). */
export type TimedWait = Exclude<Wait, 'delivery'>;

/** One wait for the service: what was followed, how long until it ended (or the wait gave up). */
export interface Timing {
  wait: TimedWait;
  /** The check that waited. */
  check: string;
  /** What was followed: `document <external_id>`, `session <id>`. */
  subject: string;
  /** From the request that started the work to the read that saw it end (or to giving up). */
  ms: number;
  /** Whether the end was seen within the suite's limit. */
  ended: boolean;
  /** The suite's limit for this wait, on this target (scaled on the mock). */
  limitMs: number;
}

/** One line of the table: the observed durations of one kind of wait. */
export interface TimingRow {
  wait: TimedWait;
  /** The document's words of time for it. */
  words: string;
  /** Waits whose end was seen, and those that gave up at the suite's limit. */
  ended: number;
  gaveUp: number;
  /** Over the waits that ended, in ms (absent when none did). */
  minMs?: number;
  medianMs?: number;
  maxMs?: number;
  /** The longest limit a wait of this kind had. */
  limitMs: number;
}

/** The document's words of time for what the suite waits on. */
export const WORDS_OF_TIME: Readonly<Record<TimedWait, string>> = {
  extraction: 'a PDF may take roughly 10 to 30 seconds',
  regeneration: 'Typical duration is under a minute.',
};

/** The run's record of waits, shared by its checks (each wait is one `observe`). */
export class Timings {
  readonly all: Timing[] = [];

  observe(t: Timing): void {
    this.all.push({ ...t, ms: Math.round(t.ms) });
  }
}

/** The table of a run's waits: one row per kind waited on, in the order of WORDS_OF_TIME. */
export function timingTable(timings: readonly Timing[]): TimingRow[] {
  const rows: TimingRow[] = [];
  for (const wait of Object.keys(WORDS_OF_TIME) as TimedWait[]) {
    const mine = timings.filter((t) => t.wait === wait);
    if (!mine.length) continue;
    const ended = mine
      .filter((t) => t.ended)
      .map((t) => t.ms)
      .sort((a, b) => a - b);
    rows.push({
      wait,
      words: WORDS_OF_TIME[wait],
      ended: ended.length,
      gaveUp: mine.length - ended.length,
      ...(ended.length && { minMs: ended[0], medianMs: ended[Math.floor((ended.length - 1) / 2)], maxMs: ended.at(-1) }),
      limitMs: Math.max(...mine.map((t) => t.limitMs)),
    });
  }
  return rows;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** A row as one line of text (console, JUnit): `extraction: 4 ended, median 1.20 s (0.80–2.30 s); ...`. */
export function timingLine(r: TimingRow): string {
  const seen = r.ended ? `${r.ended} ended, median ${seconds(r.medianMs!)} (${seconds(r.minMs!)}–${seconds(r.maxMs!)})` : 'none ended';
  const gave = r.gaveUp ? `; ${r.gaveUp} not ended within the suite's limit of ${seconds(r.limitMs)}` : '';
  return `${r.wait}: ${seen}${gave} — the document: "${r.words}"`;
}
