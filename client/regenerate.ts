// regenerateNote(): one Idempotency-Key per logical request, reused by every retry after a timeout or a network
// error, so the service collapses the retries onto one regeneration (deduplicated for at least an hour).
import type { Client } from 'openapi-fetch';
import type { paths, RegenerateAccepted, RegenerateRequest } from '../generated/types.ts';
import { toApiError } from './errors.ts';

export interface RegenerateOptions {
  /** Attempts in all when an attempt times out or fails on the network (default 3). */
  attempts?: number;
  /** Time allowed for one attempt (default 30 000 ms). */
  attemptTimeoutMs?: number;
  /** Reuse a key of your own (e.g. persisted across process restarts); default a new random UUID. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface RegenerateResult {
  accepted: RegenerateAccepted;
  idempotencyKey: string;
  attempts: number;
}

/** A timeout of our own or a failure below HTTP: the request may or may not have reached the service. */
function isTransient(error: unknown, caller: AbortSignal | undefined): boolean {
  if (caller?.aborted) return false;
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError' || error instanceof TypeError;
}

export async function regenerateNote(
  client: Client<paths>,
  sessionId: string,
  body: RegenerateRequest = {},
  options: RegenerateOptions = {},
): Promise<RegenerateResult> {
  if (typeof sessionId !== 'string' || !sessionId) throw new TypeError('sessionId must be a non-empty string');
  const attempts = options.attempts ?? 3;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 30_000;
  if (!Number.isInteger(attempts) || attempts < 1) throw new TypeError('attempts must be an integer >= 1');
  const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(attemptTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      const { data, error, response } = await client.POST('/sessions/{sessionId}/notes/regenerate', {
        params: { path: { sessionId }, header: { 'Idempotency-Key': idempotencyKey } },
        body,
        signal,
      });
      if (data === undefined) throw toApiError('POST /sessions/{sessionId}/notes/regenerate', response, error);
      return { accepted: data, idempotencyKey, attempts: attempt };
    } catch (error) {
      if (attempt >= attempts || !isTransient(error, options.signal)) throw error;
    }
  }
}
