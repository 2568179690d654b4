// Every resource module of the engine, in seeding order (a module may read rows an earlier one seeded).
import type { EngineModule } from './deps.ts';
import { providersModule } from '../resources/providers.ts';
import { PATIENTS, patientsModule } from '../resources/patients.ts';
import { APPOINTMENTS, appointmentsModule } from '../resources/appointments.ts';
import { documentsModule } from '../documents/module.ts';
import { DOCUMENTS } from '../documents/rows.ts';
import { notesModule } from '../notes/module.ts';

export const resourceModules: readonly EngineModule[] = [providersModule, patientsModule, appointmentsModule, documentsModule, notesModule];

/** The collections whose external_ids share one namespace per organization (the spec's ExternalIdInUse, XID-016). */
export const EXTERNAL_ID_NAMESPACE: readonly string[] = [PATIENTS, APPOINTMENTS, DOCUMENTS];
