// The client's entry for browsers and bundlers (the `browser` and `default` conditions of `clinical-records-api/client`):
// no Node built-in in its import graph. An upload given as a file path is refused with a TypeError here; Node gets
// path uploads from client/node.ts (the `node` condition), which is this entry plus a file reader.
import { buildClient, type ClinicalRecordsClient, type ClinicalRecordsClientOptions } from './create.ts';

export function createClinicalRecordsClient(options: ClinicalRecordsClientOptions): ClinicalRecordsClient {
  return buildClient(options, undefined);
}

export type { ClinicalRecordsClient, ClinicalRecordsClientOptions } from './create.ts';
export { ApiError, ExternalIdConflictError, UploadRejectedError, WaitTimeoutError, isExternalIdConflict } from './errors.ts';
export { rateLimitOf, retryAfterMs, type RateLimit } from './rate-limit.ts';
export type { RetryOptions } from './retry.ts';
export type { UploadInput } from './upload.ts';
export type { WaitOptions, DocumentRef } from './wait.ts';
export type { RegenerateOptions, RegenerateResult } from './regenerate.ts';
export type { ListPath, LookupPath, CreatePath, ItemOf } from './path-types.ts';
export type { StrictMethod, StrictMethods, PathsWith, OperationOf } from './strict.ts';
export type * from '../generated/types.ts';
