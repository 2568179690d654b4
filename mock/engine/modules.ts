// Every resource module of the engine, in seeding order (a module may read rows an earlier one seeded).
import type { EngineModule } from './deps.ts';
import { providersModule } from '../resources/providers.ts';
import { patientsModule } from '../resources/patients.ts';
import { appointmentsModule } from '../resources/appointments.ts';
import { documentsModule } from '../documents/module.ts';
import { notesModule } from '../notes/module.ts';

export const resourceModules: readonly EngineModule[] = [providersModule, patientsModule, appointmentsModule, documentsModule, notesModule];
