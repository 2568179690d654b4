// What a test page shows: each step's outcome in a table (for the screenshot) and the whole run as JSON in #result
// (for the test), then body[data-done] so that the test knows it may read.
export type Step = { step: string; outcome: unknown };

export function show(steps: Step[], error?: unknown): void {
  const rows = steps.map((s) => `<tr><th>${s.step}</th><td>${JSON.stringify(s.outcome).replace(/</g, '&lt;')}</td></tr>`).join('');
  document.getElementById('steps')!.innerHTML = rows;
  document.getElementById('result')!.textContent = JSON.stringify({
    steps,
    error: error === undefined ? null : String((error as Error).stack ?? error),
  });
  document.body.dataset.done = 'true';
}
