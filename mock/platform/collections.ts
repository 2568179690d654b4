// The store's collections that more than one feature reads (by name, so that no feature imports another), and the
// ones whose external_ids share one namespace per organization (the spec's ExternalIdInUse, XID-016).
export const PROVIDERS = 'providers';
export const PATIENTS = 'patients';
export const APPOINTMENTS = 'appointments';
export const DOCUMENTS = 'documents';

export const EXTERNAL_ID_NAMESPACE: readonly string[] = [PATIENTS, APPOINTMENTS, DOCUMENTS];
