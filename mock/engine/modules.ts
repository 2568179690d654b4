// Every resource module of the engine, in seeding order (a module may read rows an earlier one seeded).
import type { EngineModule } from '../platform/deps.ts';
import { providersModule } from '../features/providers/feature.ts';
import { PATIENTS, patientsModule } from '../features/patients/feature.ts';
import { APPOINTMENTS, appointmentsModule } from '../features/appointments/feature.ts';
import { documentsModule } from '../features/documents/feature.ts';
import { DOCUMENTS } from '../features/documents/rows.ts';
import { notesModule } from '../features/notes/feature.ts';

export const resourceModules: readonly EngineModule[] = [providersModule, patientsModule, appointmentsModule, documentsModule, notesModule];

/** The collections whose external_ids share one namespace per organization (the spec's ExternalIdInUse, XID-016). */
export const EXTERNAL_ID_NAMESPACE: readonly string[] = [PATIENTS, APPOINTMENTS, DOCUMENTS];
