// Helpers the check files share: reading bodies, describing responses, sample path values, creating the run's
// own resources. Check files import from support/ only, never from each other.
import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { KeyRef } from '../../target/http.ts';
import type { Exchange } from '../../../judge/define.ts';
import { createdResource, idText, SETUP_RULES, tinyPdf } from '../../run/fixtures.ts';
import type { Operation } from '../../../spec/runtime/contract.ts';
import { BodyGenerator, type CaseKind } from '../../data/datagen.ts';
import { timeScale, waitMs } from '../../run/durations.ts';

/**
 * Upload limits read from the spec: the file's x-max-bytes (the kit's reading of "10 MB"), the largest reading of it
 * (`x-max-bytes-readings`: past it every reading refuses) and the encoding's allowed content types.
 */
export function uploadLimits(ctx: CheckContext): { maxBytes?: number; refuseAbove?: number; types: string[] } {
  const file = ctx.contract.resolve('#/components/schemas/DocumentUpload/properties/file') as
    | { 'x-max-bytes'?: number; 'x-max-bytes-readings'?: number[] }
    | undefined;
  const readings = file?.['x-max-bytes-readings'] ?? [];
  const op = ctx.contract.byId('uploadDocument');
  const enc = ctx.contract.resolve(`${op.pointer}/requestBody/content/multipart~1form-data/encoding/file`) as
    | { contentType?: string }
    | undefined;
  return {
    maxBytes: file?.['x-max-bytes'],
    refuseAbove: readings.length ? Math.max(...readings) : file?.['x-max-bytes'],
    types: (enc?.contentType ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  };
}

/** One oversized and one plain-text upload per run, shared by the checks that judge them. */
export function limitUploads(ctx: CheckContext) {
  return ctx.fixtures.shared('upload-limits', async () => {
    const { maxBytes, refuseAbove, types } = uploadLimits(ctx);
    const p = await ctx.fixtures.patient();
    const path = `/patients/${String(p.id)}/documents`;
    let oversize: Exchange | undefined;
    if (refuseAbove !== undefined) {
      // A real PDF header, padded one byte past the largest reading of the limit (so past every reading).
      const pdf = tinyPdf();
      const bytes = new Uint8Array(refuseAbove + 1);
      bytes.set(pdf.subarray(0, Math.min(pdf.length, bytes.length)));
      bytes.fill(0x20, pdf.length);
      oversize = await ctx.send({
        method: 'POST',
        path,
        key: ctx.keys.main,
        form: { fields: { external_id: ctx.externalId('oversize') }, file: { name: 'oversize.pdf', type: 'application/pdf', bytes } },
      });
    }
    const text = new TextEncoder().encode('plain text is not one of the accepted document types\n');
    const wrongType = await ctx.send({
      method: 'POST',
      path,
      key: ctx.keys.main,
      form: { fields: { external_id: ctx.externalId('wrongtype') }, file: { name: 'notes.txt', type: 'text/plain', bytes: text } },
    });
    return { maxBytes, refuseAbove, types, oversize, wrongType };
  });
}

export const paginated = (ctx: CheckContext) =>
  ctx.contract.find((op) => op.method === 'GET' && !op.template.includes('{') && !!ctx.contract.queryParam(op, 'page'));

export type Obj = Record<string, unknown>;

export const dataOf = (ex: Exchange): unknown => (ex.response.json as { data?: unknown } | undefined)?.data;

export const objOf = (ex: Exchange): Obj => (dataOf(ex) ?? {}) as Obj;

export const listOf = (ex: Exchange): Obj[] => (Array.isArray(dataOf(ex)) ? (dataOf(ex) as Obj[]) : []);

export const body = (ex: Exchange): Obj => (ex.response.json ?? {}) as Obj;

export const is2xx = (ex: Exchange) => ex.response.status >= 200 && ex.response.status < 300;

export const is4xx = (ex: Exchange) => ex.response.status >= 400 && ex.response.status < 500;

/** A start_at years ahead (a random day), so the run's appointments never meet other data. */
export const farFuture = () => new Date(Date.now() + 86_400_000 * (400 + Math.floor(Math.random() * 2000))).toISOString();

/** A Luhn-valid NPI (80840 prefix) not in `taken`: the suite's own arithmetic (conformance/data/npi.ts). */
export { unusedNpi } from '../../data/npi.ts';

/** "404 {"error":"Not found"}" — what came back, short. */
export function got(ex: Exchange): string {
  return `${ex.response.status} ${ex.response.text.slice(0, 300)}`;
}

/** Fills a path template: known values by parameter name, else a random uuid (a resource that does not exist). */
export function fillPath(op: Operation, values: Record<string, string | undefined>): string {
  return op.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? (name === 'patientId' ? '9'.repeat(19) : randomUUID())),
  );
}

/**
 * Whether an error answer's fields can be read: its body is a JSON object. One that is not is error_body_shape's
 * finding (GEN-005); a check that reads a field of it then judges the status alone, so the defect fails once.
 */
export const readableError = (ex: Exchange): boolean =>
  !!ex.response.json && typeof ex.response.json === 'object' && !Array.isArray(ex.response.json);

/**
 * A 5xx answer to a request a check makes on its way to its own rule: the operation itself failed, which is the rule
 * of the check that owns that operation (it fails there), not a finding about this check's rule.
 */
export const serverFailed = (ex: Exchange): boolean => ex.response.status >= 500;

/** A 400 (validation failure). */
export function isValidationError(ex: Exchange): boolean {
  // The status is the sending check's rule; the body's { error, details } is judged on every response by
  // error_body_shape (GEN-005) and validation_error_details (ERR-001), so a wrong body is one failure, not many.
  return ex.response.status === 400;
}

/**
 * The body of an appointment a check creates on its way. Which create fields are mandatory is not shown, so it has
 * every documented one a server might require (provider_id is documented as optional, repeat_rule's input not shown).
 */
export function appointmentBody(ctx: CheckContext, patientId: string, extra: Obj = {}): Obj {
  return {
    patient_id: patientId,
    appointment_type: 'Conformance visit',
    visit_type: enumOf(ctx, 'VisitType')[0],
    start_at: new Date(Date.now() + 86_400_000 * 30).toISOString(),
    duration_minutes: 30,
    notes: 'Created by the conformance suite',
    status: enumOf(ctx, 'AppointmentStatus')[0],
    external_id: ctx.externalId('appt'),
    ...extra,
  };
}

export function createAppointment(ctx: CheckContext, patientId: string, extra: Obj = {}): Promise<Exchange> {
  return ctx.send({ method: 'POST', path: '/appointments', key: ctx.keys.main, json: appointmentBody(ctx, patientId, extra) });
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
    form: {
      fields: o.fields ?? { external_id: externalId },
      file: { name: o.fileName ?? 'conformance.pdf', type: 'application/pdf', bytes: tinyPdf(o.text) },
    },
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
  const started = performance.now();
  const deadline = Date.now() + maxMs;
  let last: Obj | undefined;
  let exchange: Exchange | undefined;
  // Always at least one look, however small maxMs (a 1 ms bound is "what is it now?").
  for (let wait = 20; ; wait = Math.min(wait * 2, 1000)) {
    exchange = await ctx.send({
      method: 'GET',
      path: `/patients/${patientId}/documents`,
      key: ctx.keys.main,
      query: { external_id: externalId },
    });
    last = byExternalId(exchange, externalId);
    const s = typeof last?.status === 'string' ? last.status : undefined;
    if (s && statuses.at(-1) !== s) statuses.push(s);
    if (s === 'completed' || s === 'failed' || Date.now() >= deadline) break;
    await ctx.sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
  const ended = statuses.at(-1) === 'completed' || statuses.at(-1) === 'failed';
  // A look shorter than the documented wait ("what is it now?") times nothing.
  if (ended || maxMs >= waitMs('extraction', timeScale(ctx.mock)))
    ctx.timings.observe({
      wait: 'extraction',
      check: ctx.name,
      subject: `document ${externalId}`,
      ms: performance.now() - started,
      ended,
      limitMs: maxMs,
    });
  return { statuses, last, exchange };
}

/** Enum of a component schema, read from the spec (e.g. the document statuses). */
export function enumOf(ctx: CheckContext, schema: string): string[] {
  const s = ctx.contract.resolve(`#/components/schemas/${schema}`) as { enum?: string[] } | undefined;
  return s?.enum ?? [];
}

let generator: BodyGenerator | undefined;

export const gen = (ctx: CheckContext) => (generator ??= new BodyGenerator(ctx.contract));

/** Targets: each JSON-body operation with its path and the values its fields must reference. */
export async function targets(ctx: CheckContext) {
  const patient = await ctx.fixtures.patient();
  const providers = await ctx.fixtures.providers();
  const appt = await createAppointment(ctx, String(patient.id));
  const apptId = String(objOf(appt).id ?? '');
  const bind = { patient_id: String(patient.id), provider_id: String(providers[0]?.id ?? '') };
  const out = [];
  for (const op of ctx.contract.operations) {
    if (!op.jsonBodyPointer) continue;
    if (op.operationId.startsWith('regenerate')) continue; // would regenerate a note the run does not own
    const path = op.template.replace('{patientId}', String(patient.id)).replace('{appointmentId}', apptId);
    out.push({ op, path, bind });
  }
  return out;
}

/** `says`: the document's words the refusal rests on (the caller's, checked verbatim there). */
export function negative(kinds: CaseKind[], words: string | string[]): CheckDef['run'] {
  return async (ctx) => {
    let assumedOnly = 0;
    let asserted = 0;
    for (const t of await targets(ctx)) {
      const g = gen(ctx);
      // The base every case breaks one thing of: the fullest body every reading takes (a server may require more than
      // the kit does: spec/readings.yaml), so that only the broken field can be what a refusal is for.
      const bodies = g.valid(t.op.jsonBodyPointer!, { ...t.bind, external_id: ctx.externalId('base') });
      const base = (bodies.filter((b) => !b.assumed).at(-1) ?? bodies[0])?.body ?? {};
      const cases = g.invalid(t.op.jsonBodyPointer!, base, () => (t.op.method === 'POST' ? { external_id: ctx.externalId('neg') } : {}));
      for (const c of cases.filter((c) => kinds.includes(c.kind))) {
        if (c.assumed && ctx.profile === 'documented') {
          assumedOnly++;
          continue;
        }
        const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, json: c.body });
        asserted++;
        ctx.expect(isValidationError(ex), {
          message: `${t.op.method} ${t.op.template} with ${c.label}${c.assumed ? ' (assumed constraint)' : ''}`,
          expected: '400 { error, details }',
          actual: got(ex),
          exchange: ex,
          says: words,
        });
      }
    }
    if (!asserted && assumedOnly) ctx.skip(`all ${assumedOnly} cases break assumed constraints only: run with --profile all`);
  };
}

export const json = (v: unknown) => JSON.stringify(v);

/** A setup step's new resource: any 2xx whose data has an id (as text); otherwise the check is blocked on `ruleId`. */
export const made = (ex: Exchange, what: string, ruleId: string) => createdResource(ex.response, what, ruleId);

/** Do two ids name the same resource, whatever their JSON types ("12" and 12)? */
export const sameId = (a: unknown, b: unknown) => idText(a) !== undefined && idText(a) === idText(b);

/** Rule ids whose checks judge the setup steps other checks rely on. */
export const SETUP = SETUP_RULES;

/**
 * The item of a lookup's answer that carries `externalId`: a check that uses the lookup to follow its own resource
 * finds it whether or not the server applied the filter (whether it did is XID-008's to judge).
 */
export const byExternalId = (ex: Exchange, externalId: string): Obj | undefined => listOf(ex).find((x) => x.external_id === externalId);
