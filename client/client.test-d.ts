// Type tests: misuse must not compile. Checked by tsc through client/types.test.ts (tsconfig.typetest.json), so a
// `@ts-expect-error` that stops erroring, or an expectTypeOf that stops holding, fails `npm test`.
import { expectTypeOf } from 'vitest';
import type {
  Appointment,
  Document,
  Patient,
  PatientListItem,
  Provider,
  WebhookEvent,
  NoteEvent,
  DocumentStatusChangedEvent,
} from '../generated/types.ts';
import { createClinicalRecordsClient, type ExternalIdConflictError } from './index.ts';
import { parseWebhook, webhookDedupeKey } from './webhooks.ts';

const client = createClinicalRecordsClient({ baseUrl: 'http://127.0.0.1:1/ext-api/v1', apiKey: 'k' });
const ID = '7281928374650192';

export async function typeTests() {
  // Right usage is typed end to end.
  const got = await client.GET('/patients/{patientId}', { params: { path: { patientId: ID } } });
  expectTypeOf(got.data).toEqualTypeOf<{ data: Patient } | undefined>();
  expectTypeOf<Patient['id']>().toEqualTypeOf<string>();
  if (got.error) expectTypeOf(got.error.error).toBeString();

  // A wrong path does not compile.
  // @ts-expect-error no such path
  await client.GET('/patient/{patientId}', { params: { path: { patientId: ID } } });
  // @ts-expect-error DELETE is not an operation of /providers
  await client.DELETE('/providers');

  // A numeric patient id does not compile (in paths, bodies and helpers).
  // @ts-expect-error patientId is a string
  await client.GET('/patients/{patientId}', { params: { path: { patientId: 7281928374650192 } } });
  // @ts-expect-error patient_id is a string
  await client.POST('/appointments', { body: { patient_id: 7281928374650192, start_at: '2026-12-01T15:30:00Z', duration_minutes: 30 } });
  // @ts-expect-error patientId is a string
  await client.uploadDocument(42, { file: new Blob(), filename: 'a.pdf' });

  // A wrong body field does not compile.
  // @ts-expect-error nickname is not a field of AppointmentCreate
  await client.POST('/appointments', { body: { patient_id: ID, start_at: '2026-12-01T15:30:00Z', duration_minutes: 30, nickname: 'A' } });
  // @ts-expect-error nickname is not a field of PatientCreate (openapi-fetch loses excess checks on union bodies; create() keeps them)
  await client.create('/patients', { name: 'Ada', nickname: 'A' });
  // @ts-expect-error nickname is not a field of PatientUpdate
  await client.PATCH('/patients/{patientId}', { params: { path: { patientId: ID } }, body: { nickname: 'A' } });
  // @ts-expect-error visit_type is an enum
  await client.PATCH('/appointments/{appointmentId}', { params: { path: { appointmentId: 'a' } }, body: { visit_type: 'Phone' } });
  // @ts-expect-error model is fast | balanced | detailed
  await client.regenerateNote('s', { model: 'turbo' });

  // A missing required field does not compile.
  // @ts-expect-error duration_minutes is required
  await client.POST('/appointments', { body: { patient_id: ID, start_at: '2026-12-01T15:30:00Z' } });
  // @ts-expect-error a patient needs one of name, first_name, last_name (the spec's anyOf)
  await client.POST('/patients', { body: { email: 'a@b.c' } });
  // @ts-expect-error the same through create()
  await client.create('/patients', { email: 'a@b.c' });
  // Defaults stay optional: visit_type and status have one.
  await client.POST('/appointments', { body: { patient_id: ID, start_at: '2026-12-01T15:30:00Z', duration_minutes: 30 } });
  // @ts-expect-error the path parameter is required
  await client.GET('/patients/{patientId}', { params: { path: {} } });
  // @ts-expect-error the documents list needs its patientId
  client.paginate('/patients/{patientId}/documents');

  // Helpers are typed from the spec: items, lookups, creates.
  for await (const p of client.paginate('/patients', { query: { search: 'a', limit: 10 } }))
    expectTypeOf(p).toEqualTypeOf<PatientListItem>();
  for await (const d of client.paginate('/patients/{patientId}/documents', { path: { patientId: ID } }))
    expectTypeOf(d).toEqualTypeOf<Document>();
  for await (const p of client.paginate('/providers')) expectTypeOf(p).toEqualTypeOf<Provider>();
  // @ts-expect-error /notes/{noteId} is not a list
  client.paginate('/notes/{noteId}');
  // @ts-expect-error page is owned by the iterator
  client.paginate('/patients', { query: { page: 2 } });
  expectTypeOf(await client.findByExternalId('/appointments', 'x')).toEqualTypeOf<Appointment | undefined>();
  expectTypeOf(await client.findByExternalId('/patients/{patientId}/documents', 'x', { patientId: ID })).toEqualTypeOf<
    Document | undefined
  >();
  // @ts-expect-error providers are looked up by npi, not external_id
  await client.findByExternalId('/providers', 'x');
  expectTypeOf((await client.create('/patients', { first_name: 'Grace' })).data).toEqualTypeOf<Patient>();
  expectTypeOf<ExternalIdConflictError['existing']>().toEqualTypeOf<{ id: string; external_id: string }>();

  // Webhooks.
  const event = parseWebhook({ body: '{}', contentType: 'application/json' });
  expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
  expectTypeOf<WebhookEvent>().toEqualTypeOf<NoteEvent | DocumentStatusChangedEvent>();
  if (event.event === 'DOCUMENT_STATUS_CHANGED') expectTypeOf(event.status).toEqualTypeOf<'completed' | 'failed'>();
  expectTypeOf(webhookDedupeKey).returns.toBeString();
}
