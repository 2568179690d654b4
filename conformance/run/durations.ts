// How long the service may take, as the source document states it: the time a check gives a wait and the budget of
// a check that waits. The suite never takes these from the mock (the mock scales them down; a deployment does not).
/** What a check may wait for on the service (CheckDef.waits). */
export type Wait = 'extraction' | 'regeneration' | 'delivery';

/** The documented durations, in real milliseconds. */
export const DOCUMENTED_MS: Readonly<Record<Wait, number>> = {
  // Documents, upload rule 1: "it does not wait for extraction (a PDF may take roughly 10 to 30 seconds)".
  extraction: 30_000,
  // Note regeneration: "Typical duration is under a minute."
  regeneration: 60_000,
  // Delivery rules 1 and 2: "timeout 30 seconds"; "Up to 3 attempts, with exponential backoff of 1 s then 2 s":
  // three attempts that each time out, and the two gaps between them.
  delivery: 3 * 30_000 + 1_000 + 2_000,
};

/** The fastest a PDF's extraction is documented to take ("roughly 10 to 30 seconds"), in real milliseconds. */
export const EXTRACTION_FASTEST_MS = 10_000;

/**
 * Slack on each wait: "roughly" and "typical" are not bounds, and the network, the suite's own polling and a busy
 * machine add real time that no time scale shrinks (so it is never scaled).
 */
export const MARGIN_MS = 10_000;

/** The mock's time scale when the run knows it (GET /__mock/health gives its second); 1 against anything else. */
export function timeScale(mock?: { secondMs?: number }): number {
  return mock?.secondMs ? mock.secondMs / 1000 : 1;
}

/**
 * How many times the documented figure a wait lasts. "Roughly 10 to 30 seconds" and "typical duration is under a
 * minute" are no bounds (spec/readings.yaml: extraction-slow, regeneration-slow): a server whose extraction takes 45 s
 * or whose regeneration takes 90 s follows the document, so the suite waits three times the words before it gives up.
 * Delivery's figures are bounds the document gives (a 30 s timeout, 3 attempts): waited for as they are.
 */
const PATIENCE: Readonly<Record<Wait, number>> = { extraction: 3, regeneration: 3, delivery: 1 };

/** How long one wait for `what` lasts before the check gives up on it: the suite's limit for it (scaled) + margin. */
export function waitMs(what: Wait, scale = 1): number {
  return Math.round(DOCUMENTED_MS[what] * PATIENCE[what] * scale) + MARGIN_MS;
}

/**
 * The budget of a check: --check-timeout, or, when longer, every wait it makes in turn (one entry each in `waits`)
 * plus a margin for its own requests, so a wait that runs out ends in the check's own verdict, not in a time-out.
 */
export function checkBudgetMs(waits: readonly Wait[] | undefined, checkTimeoutMs: number, scale = 1): { ms: number; why: string } {
  if (!waits?.length) return { ms: checkTimeoutMs, why: '--check-timeout' };
  const ms = waits.reduce((sum, w) => sum + waitMs(w, scale), MARGIN_MS);
  if (ms <= checkTimeoutMs) return { ms: checkTimeoutMs, why: '--check-timeout' };
  const named = waits.map((w) => `${w} ${Math.round((DOCUMENTED_MS[w] * PATIENCE[w] * scale) / 100) / 10} s`).join(' + ');
  return {
    ms,
    why: `waits of ${named} (the document's words, ${PATIENCE.extraction}x where they are no bound), each + ${MARGIN_MS / 1000} s margin, + ${MARGIN_MS / 1000} s for its requests`,
  };
}
