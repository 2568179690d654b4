// Small helpers the checks share: reading bodies, describing responses, sample path values.
import { randomUUID } from 'node:crypto';
import type { Exchange, KeyRef } from '../http.ts';
import type { CheckContext } from '../model.ts';
import type { Operation } from '../contract.ts';
import { tinyPdf } from '../fixtures.ts';
import { npiCheckDigit } from '../../mock/seed/random.ts';

export type Obj = Record<string, unknown>;

export const dataOf = (ex: Exchange): unknown => (ex.response.json as { data?: unknown } | undefined)?.data;
export const objOf = (ex: Exchange): Obj => (dataOf(ex) ?? {}) as Obj;
export const listOf = (ex: Exchange): Obj[] => (Array.isArray(dataOf(ex)) ? (dataOf(ex) as Obj[]) : []);
export const body = (ex: Exchange): Obj => (ex.response.json ?? {}) as Obj;

export const is2xx = (ex: Exchange) => ex.response.status >= 200 && ex.response.status < 300;
export const is4xx = (ex: Exchange) => ex.response.status >= 400 && ex.response.status < 500;

/** A start_at years ahead (a random day), so the run's appointments never meet other data. */
export const farFuture = () => new Date(Date.now() + 86_400_000 * (400 + Math.floor(Math.random() * 2000))).toISOString();

/** A Luhn-valid NPI (80840 prefix) not in `taken`. */
export function unusedNpi(taken: string[]): string {
  for (let base = 999999999; ; base--) {
    const npi = `${base}${npiCheckDigit(String(base))}`;
    if (!taken.includes(npi)) return npi;
  }
}

/** "404 {"error":"Not found"}" — what came back, short. */
export function got(ex: Exchange): string {
  return `${ex.response.status} ${ex.response.text.slice(0, 300)}`;
}

/** Fills a path template: known values by parameter name, else a random uuid (a resource that does not exist). */
export function fillPath(op: Operation, values: Record<string, string | undefined>): string {
  return op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? (name === 'patientId' ? '9'.repeat(19) : randomUUID())));
}

/** A 400 with the documented `{ error, details }` (details a non-empty map). */
export function isValidationError(ex: Exchange): boolean {
  const b = body(ex);
  return ex.response.status === 400 && typeof b.error === 'string' && !!b.details && typeof b.details === 'object' && Object.keys(b.details as Obj).length > 0;
}

export async function createAppointment(ctx: CheckContext, patientId: string, extra: Obj = {}): Promise<Exchange> {
  return ctx.send({
    method: 'POST',
    path: '/appointments',
    key: ctx.keys.main,
    json: {
      patient_id: patientId,
      start_at: new Date(Date.now() + 86_400_000 * 30).toISOString(),
      duration_minutes: 30,
      external_id: ctx.externalId('appt'),
      ...extra,
    },
  });
}

/** A one-page PDF upload; `text` is the PDF's text, `fields` replace the form's external_id field. */
export async function uploadDocument(
  ctx: CheckContext,
  patientId: string,
  externalId = ctx.externalId('doc'),
  o: { text?: string; fileName?: string; fields?: Record<string, string>; key?: KeyRef } = {},
): Promise<Exchange> {
  return ctx.send({
    method: 'POST',
    path: `/patients/${patientId}/documents`,
    key: o.key ?? ctx.keys.main,
    form: { fields: o.fields ?? { external_id: externalId }, file: { name: o.fileName ?? 'conformance.pdf', type: 'application/pdf', bytes: tinyPdf(o.text) } },
  });
}

/** Polls a document through its external_id lookup until a terminal status (or the deadline). */
export async function followDocument(
  ctx: CheckContext,
  patientId: string,
  externalId: string,
  maxMs: number,
): Promise<{ statuses: string[]; last?: Obj; exchange?: Exchange }> {
  const statuses: string[] = [];
  const deadline = Date.now() + maxMs;
  let last: Obj | undefined;
  let exchange: Exchange | undefined;
  // Always at least one look, however small maxMs (a 1 ms bound is "what is it now?").
  for (let wait = 20; ; wait = Math.min(wait * 2, 1000)) {
    exchange = await ctx.send({ method: 'GET', path: `/patients/${patientId}/documents`, key: ctx.keys.main, query: { external_id: externalId } });
    last = listOf(exchange)[0];
    const s = typeof last?.status === 'string' ? last.status : undefined;
    if (s && statuses.at(-1) !== s) statuses.push(s);
    if (s === 'completed' || s === 'failed' || Date.now() >= deadline) break;
    await ctx.sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
  return { statuses, last, exchange };
}

/** Enum of a component schema, read from the spec (e.g. the document statuses). */
export function enumOf(ctx: CheckContext, schema: string): string[] {
  const s = ctx.contract.resolve(`#/components/schemas/${schema}`) as { enum?: string[] } | undefined;
  return s?.enum ?? [];
}
