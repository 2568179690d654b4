// Every check of the suite, in area order.
import type { CheckDef } from '../model.ts';
import { probeChecks } from './probe.ts';
import { authChecks } from './auth.ts';
import { scopeChecks } from './scopes.ts';
import { tenancyChecks } from './tenancy.ts';
import { validationChecks } from './validation.ts';
import { externalIdChecks } from './external-id.ts';
import { lookupChecks } from './lookups.ts';
import { paginationChecks } from './pagination.ts';
import { patientChecks } from './patients.ts';
import { documentChecks } from './documents.ts';
import { noteChecks } from './notes.ts';
import { regenerationChecks } from './regeneration.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { webhookChecks } from './webhooks.ts';
import { sequenceChecks } from './sequences.ts';
import { appointmentChecks } from './appointments.ts';
import { providerAssignmentChecks } from './providers-assignment.ts';
import { uploadLimitChecks } from './documents.ts';
import { contractSurfaceChecks } from './contract-surface.ts';
import { resourceFieldChecks } from './resource-fields.ts';
import { asyncOperationChecks } from './async-operations.ts';
import { webhookDeliveryChecks } from './webhook-delivery.ts';

export const allChecks: CheckDef[] = [
  ...probeChecks,
  ...authChecks,
  ...scopeChecks,
  ...tenancyChecks,
  ...validationChecks,
  ...externalIdChecks,
  ...lookupChecks,
  ...paginationChecks,
  ...patientChecks,
  ...appointmentChecks,
  ...providerAssignmentChecks,
  ...documentChecks,
  ...uploadLimitChecks,
  ...noteChecks,
  ...regenerationChecks,
  ...rateLimitChecks,
  ...webhookChecks,
  ...sequenceChecks,
  ...contractSurfaceChecks,
  ...resourceFieldChecks,
  ...asyncOperationChecks,
  ...webhookDeliveryChecks,
];
