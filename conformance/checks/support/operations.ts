// Helpers over the spec's operations: path parameters and their forms, JSON write bodies, keys by scope.
import type { KeyRef } from '../../target/http.ts';
import type { Exchange } from '../../../judge/define.ts';
import type { Operation } from '../../../spec/runtime/contract.ts';
import type { CheckContext } from '../../run/model.ts';
import { templateParams } from '../../../spec/runtime/operations.ts';
import {
  type Obj,
  appointmentBody,
  createAppointment,
  farFuture,
  is2xx,
  objOf,
  fillPath,
  got,
  is4xx,
  listOf,
  serverFailed,
} from './common.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DIGITS = /^\d+$/;

export const WRITE_METHODS = ['POST', 'PATCH', 'PUT'];

/** An `{ error }` body with a non-empty string (the only thing fixed about most error texts). */
export const opLabel = (op: Operation) => `${op.method} ${op.template}`;

/** Path parameters of a template, in order. */
export const pathParams = (op: Operation) => templateParams(op.template);

/** Values of the wrong form for a path parameter (patientId: not digits; the others: not a UUID). */
export const malformed = (name: string) => (name === 'patientId' ? 'abc' : 'not-a-uuid');

/** The run's own patient and appointment, shared by the checks of this file. */
export function own(ctx: CheckContext): Promise<{ patient: Obj; appointment: Obj }> {
  return ctx.fixtures.shared('own-patient-and-appointment', async () => {
    const patient = await ctx.fixtures.patient();
    if (ctx.readOnly) return { patient, appointment: {} };
    const a = await createAppointment(ctx, String(patient.id), { start_at: farFuture() });
    if (!is2xx(a) || typeof objOf(a).id !== 'string')
      ctx.skip(`could not create an appointment to work on: POST /appointments answered ${a.response.status}`);
    return { patient, appointment: objOf(a) };
  });
}

/** A session whose note a 202 may regenerate: only the mock's (its data is the run's to change). */
export async function mockSession(ctx: CheckContext): Promise<string | undefined> {
  if (!ctx.mock) return undefined;
  const note = (await ctx.fixtures.notes())[0];
  return note ? String(note.session_id) : undefined;
}

/** A valid body for a JSON write, by operation; undefined for one this file does not know. */
export function bodyFor(ctx: CheckContext, op: Operation, patientId: string): Obj | undefined {
  switch (op.operationId) {
    case 'createPatient':
      return { name: 'Conformance contract surface', external_id: ctx.externalId('surface') };
    case 'createAppointment':
      return appointmentBody(ctx, patientId, { start_at: farFuture(), external_id: ctx.externalId('surface-appt') });
    case 'updatePatient':
      return { phone: '+1 202 555 0142' };
    case 'updateAppointment':
      return { notes: 'Conformance contract surface' };
    case 'regenerateSessionNote':
      return {};
    default:
      return undefined;
  }
}

export interface JsonWrite {
  op: Operation;
  path: string;
  body: () => Obj;
}

/**
 * Every JSON write of the spec against the run's own resources, each with a fresh valid body; the regenerate
 * operation only with --mock (a 2xx there regenerates a note the run does not own).
 */
export async function jsonWrites(ctx: CheckContext): Promise<{ targets: JsonWrite[]; left: string[] }> {
  const { patient, appointment } = await own(ctx);
  const sessionId = await mockSession(ctx);
  const values = { patientId: String(patient.id), appointmentId: String(appointment.id), sessionId };
  const targets: JsonWrite[] = [];
  const left: string[] = [];
  for (const op of ctx.contract.operations) {
    if (!op.jsonBodyPointer || !WRITE_METHODS.includes(op.method)) continue;
    if (
      pathParams(op).some((p) => !(p in values) || values[p as keyof typeof values] === undefined) ||
      bodyFor(ctx, op, values.patientId) === undefined
    ) {
      left.push(opLabel(op));
      continue;
    }
    targets.push({ op, path: fillPath(op, values), body: () => bodyFor(ctx, op, values.patientId)! });
  }
  return { targets, left };
}

/** A key of the run lacking every scope of `needed`. */
export function keyWithout(ctx: CheckContext, needed: string[]): { key: KeyRef; scopes: string[] } | undefined {
  return ctx.keys.scoped.find((s) => !s.scopes.includes('*') && !needed.some((n) => s.scopes.includes(n)));
}

/** The document's words for each path parameter's form (Endpoints: "Path parameters: ..."). */
const PATH_PARAM_WORDS: Record<string, { says: string }> = {
  patientId: { says: 'patientId (string of digits)' },
  appointmentId: { says: 'appointmentId (UUID)' },
  documentId: { says: 'documentId (UUID)' },
  noteId: { says: 'noteId (UUID)' },
  sessionId: { says: 'sessionId (UUID)' },
  providerId: { says: 'providerId (UUID)' },
};

/**
 * A path id check: the id the API gives has the documented form and the path takes it (2xx); the same path with
 * ids of another form (including the real id with a character appended, which a lenient parser would still
 * resolve) never answers 2xx but a 4xx (400 or 404: which one is ERR-019's business).
 */
export async function pathIdForm(
  ctx: CheckContext,
  o: {
    param: string;
    form: RegExp;
    formName: string;
    id: string;
    /**
     * `takes`: how the answer to the real id shows the path took it, where a 2xx is not the only way (the extract
     * endpoint's statuses are "not shown": a failed run may answer a 4xx of its own); by default a 2xx.
     */
    requests: Array<{ method: string; path: (id: string) => string; json?: Obj; takes?: (ex: Exchange) => boolean }>;
    ok?: boolean;
  },
) {
  const form = PATH_PARAM_WORDS[o.param]?.says ?? 'Path parameters';
  ctx.expect(o.form.test(o.id), { expected: `${o.param} ${o.formName}`, actual: JSON.stringify(o.id), says: form });
  for (const r of o.requests) {
    if (o.ok !== false) {
      const ex = await ctx.send({ method: r.method, path: r.path(o.id), key: ctx.keys.main, json: r.json });
      // A 5xx does not refuse the id's form: the operation failed, which its own check judges.
      ctx.expect((r.takes ?? is2xx)(ex) || serverFailed(ex), {
        expected: `${r.takes ? 'an answer that takes the id' : '2xx'} for ${r.method} ${r.path(`{${o.param}}`)} with the ${o.param} ${o.id} the API gave`,
        actual: got(ex),
        exchange: ex,
        says: [form, 'All paths are relative to {base_url}.'],
      });
    }
    for (const bad of [`${o.id}x`, malformed(o.param)]) {
      const ex = await ctx.send({ method: r.method, path: r.path(encodeURIComponent(bad)), key: ctx.keys.main, json: r.json });
      ctx.expect(is4xx(ex), {
        expected: `a 4xx (never 2xx) for ${r.method} ${r.path(`{${o.param}}`)} with ${o.param} ${JSON.stringify(bad)}, which is not ${o.formName}`,
        actual: got(ex),
        exchange: ex,
        says: form,
      });
    }
  }
}

/** Ids to fill the GET paths with: the run's patient, and the first listed appointment, provider, note and session. */
export async function readablePathValues(ctx: CheckContext): Promise<Record<string, string | undefined>> {
  const patient = await ctx.fixtures.patient();
  const note = (await ctx.fixtures.notes())[0];
  const provider = (await ctx.fixtures.providers())[0];
  const appointment = listOf(await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { limit: 1 } }))[0];
  return {
    patientId: String(patient.id),
    appointmentId: appointment?.id as string | undefined,
    providerId: provider?.id as string | undefined,
    noteId: note?.id as string | undefined,
    sessionId: note?.session_id as string | undefined,
  };
}
