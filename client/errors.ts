// Errors the helpers throw. The raw openapi-fetch methods never throw for HTTP statuses: they return `{ data, error }`.
import type { ExternalIdConflict } from '../generated/types.ts';
import { rateLimitOf, type RateLimit } from './rate-limit.ts';

/** A non-success answer of the API, with its parsed body (`{ error, details? }` and friends) and rate-limit headers. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly rateLimit: RateLimit;
  constructor(
    readonly operation: string,
    readonly response: Response,
    readonly body: unknown,
  ) {
    const detail = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : String(body ?? '');
    super(`${operation} answered ${response.status}${detail ? `: ${detail}` : ''}`);
    this.status = response.status;
    this.rateLimit = rateLimitOf(response);
  }
}

/** A create whose `external_id` is already used in the organization: `existing` names the holder. */
export class ExternalIdConflictError extends ApiError {
  override name = 'ExternalIdConflictError';
  declare readonly body: ExternalIdConflict;
  readonly existing: ExternalIdConflict['existing'];
  constructor(operation: string, response: Response, body: ExternalIdConflict) {
    super(operation, response, body);
    this.existing = body.existing;
  }
}

/** True for the documented 409 body `{ error, existing: { id, external_id } }`. */
export function isExternalIdConflict(body: unknown): body is ExternalIdConflict {
  const existing = (body as { existing?: { id?: unknown; external_id?: unknown } } | null)?.existing;
  return typeof existing?.id === 'string' && typeof existing.external_id === 'string';
}

/** Turns an openapi-fetch error result into the matching thrown error. */
export function toApiError(operation: string, response: Response, body: unknown): ApiError {
  return response.status === 409 && isExternalIdConflict(body)
    ? new ExternalIdConflictError(operation, response, body)
    : new ApiError(operation, response, body);
}

/** The upload helper refused a file before sending it. */
export class UploadRejectedError extends Error {
  override name = 'UploadRejectedError';
  constructor(
    readonly reason: 'too-large' | 'unsupported-type' | 'name-mismatch' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

/** waitForDocument ran out of time; `last` is the document as last seen. */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    readonly last: unknown,
  ) {
    super(message);
  }
}
