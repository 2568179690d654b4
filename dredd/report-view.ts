// What Dredd's reporters keep of a transaction's answer, set in afterEach (after Gavel has judged the whole answer,
// before any reporter sees it): server text made safe to show (sanitize.ts) and bounded. Dredd keeps every
// transaction (and the cli, markdown and html reporters every shown body) until the run ends, so each body is cut to
// a share and all bodies together to a total: 142 answers just under the read bound would otherwise hold 1.4 GB.
// Keys are already redacted by the Guard when the answer arrived, so cutting here can never leave part of one.
import { reportSafe } from './sanitize.ts';

/** The part of a Dredd transaction this shapes. */
export interface ShownAnswer {
  real?: { headers?: Record<string, string>; body?: string };
  test?: { message?: string };
  results?: {
    fields?: Record<string, { values?: { actual?: unknown }; errors?: Array<{ message?: string }> } | undefined>;
  };
}

const KB = 1024;

export class ReportBudget {
  private kept = 0;

  constructor(
    readonly perBody = 64 * KB,
    readonly total = 4 * KB * KB,
  ) {}

  /** The body as reporters get it: at most `perBody` characters, nothing more once `total` is spent. */
  keep(body: string): string {
    const room = Math.min(this.perBody, this.total - this.kept);
    if (body.length <= room) {
      this.kept += body.length;
      return body;
    }
    if (room <= 0) return `[${body.length} characters not kept: the report keeps at most ${this.total / KB} KB of answer bodies]`;
    this.kept += room;
    return `${body.slice(0, room)}\n[… ${body.length - room} more characters not kept]`;
  }
}

export function shapeForReport(t: ShownAnswer, budget: ReportBudget): void {
  if (t.real) {
    if (t.real.body) t.real.body = reportSafe(budget.keep(t.real.body));
    if (t.real.headers)
      t.real.headers = Object.fromEntries(Object.entries(t.real.headers).map(([k, v]) => [reportSafe(k), reportSafe(String(v))]));
  }
  if (t.test?.message) t.test.message = reportSafe(t.test.message);
  const fields = t.results?.fields ?? {};
  const body = fields.body?.values;
  if (body) body.actual = t.real?.body;
  const headers = fields.headers?.values;
  if (headers && t.real?.headers) headers.actual = t.real.headers;
  for (const f of Object.values(fields)) for (const e of f?.errors ?? []) if (e.message) e.message = reportSafe(e.message);
}
