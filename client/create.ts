// The client's one implementation: openapi-fetch typed by the generated `paths`, plus the helpers that know the API's
// rules (pagination, external_id lookups and conflicts, checked uploads, extraction polling, idempotent
// regeneration, 429/503 retry). Raw calls return `{ data, error, response }`; helpers return values and throw ApiError.
// The entries (index.ts for browsers and bundlers, node.ts for Node) differ only in the path reader they hand in.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { apiKeyHeader } from '../generated/spec-values.ts';
import type { Document, DocumentUploadResult, paths, RegenerateRequest } from '../generated/types.ts';
import { toApiError } from './errors.ts';
import { create, findByExternalId } from './lookup.ts';
import { loose } from './loose.ts';
import { paginate } from './paginate.ts';
import type { CreateBody, CreatePath, Created, GetPathArgs, ItemOf, ListInit, ListPath, LookupPath } from './path-types.ts';
import { rateLimitOf, type RateLimit } from './rate-limit.ts';
import { regenerateNote, type RegenerateOptions, type RegenerateResult } from './regenerate.ts';
import { normalizeRetry, withRetry, type FetchLike, type RetryOptions } from './retry.ts';
import { prepareUpload, type PathReader, type UploadInput } from './upload.ts';
import type { StrictMethods } from './strict.ts';
import { waitFor, type DocumentRef, type WaitOptions } from './wait.ts';

export interface ClinicalRecordsClientOptions {
  /** Base address including the version prefix, e.g. https://host/ext-api/v1. */
  baseUrl: string;
  /** Organization API key, sent in the spec's API key header on every request. */
  apiKey: string;
  /** A fetch of your own (tests, proxies, instrumentation); default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retry 429 and 503, honouring Retry-After, bounded in attempts and time. Off unless given. */
  retry?: boolean | RetryOptions;
}

/** openapi-fetch's client with strict method signatures (client/strict.ts) and the API's helpers. */
export interface ClinicalRecordsClient extends Omit<Client<paths>, keyof StrictMethods>, StrictMethods {
  /** Rate-limit headers of the latest response (every response carries them). */
  readonly rateLimit: RateLimit | undefined;
  /** Every item of a list operation, following `meta.total_pages`; a list without `meta` is one page. */
  paginate<P extends ListPath>(path: P, ...init: ListInit<P>): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** The one item with this external_id, or undefined on the documented 404. */
  findByExternalId<P extends LookupPath>(path: P, externalId: string, ...pathParams: GetPathArgs<P>): Promise<ItemOf<P> | undefined>;
  /** Creates; a 409 external_id conflict throws ExternalIdConflictError carrying `existing`. */
  create<P extends CreatePath>(path: P, body: CreateBody<P>): Promise<Created<P>>;
  /** Uploads after checking size and type (by content) against the spec; throws UploadRejectedError before sending. */
  uploadDocument(patientId: string, input: UploadInput): Promise<DocumentUploadResult>;
  /** Polls a document by external_id or id until `completed` or `failed`; throws WaitTimeoutError after timeoutMs. */
  waitForDocument(patientId: string, ref: DocumentRef, options?: WaitOptions): Promise<Document>;
  /** Queues a regeneration with an Idempotency-Key reused by its retries after a timeout or network error. */
  regenerateNote(sessionId: string, body?: RegenerateRequest, options?: RegenerateOptions): Promise<RegenerateResult>;
}

/** Ids are opaque strings: a number (a patient id would lose digits past 2^53) is refused, not converted. */
function requireId(name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string, got ${typeof value}`);
}

export function buildClient(options: ClinicalRecordsClientOptions, readPath: PathReader | undefined): ClinicalRecordsClient {
  if (!options || typeof options !== 'object') throw new TypeError('createClinicalRecordsClient needs { baseUrl, apiKey }');
  const { baseUrl, apiKey } = options;
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`);
  if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new TypeError('apiKey must be a non-empty string');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('fetch must be a function');

  // Resolved at call time, so a fetch stubbed after creation is still used.
  const base: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const retry = normalizeRetry(options.retry);
  const api = createClient<paths>({ baseUrl, fetch: retry ? withRetry(base, retry) : base });

  let rateLimit: RateLimit | undefined;
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set(apiKeyHeader, apiKey);
      return request;
    },
    onResponse({ response }) {
      rateLimit = rateLimitOf(response);
    },
  };
  api.use(auth);
  const { GET, POST } = loose(api);

  const client: Omit<ClinicalRecordsClient, keyof Client<paths> | keyof StrictMethods | 'rateLimit'> = {
    paginate: ((path: string, init?: { path?: object; query?: Record<string, unknown> }) =>
      paginate(GET, path, init)) as ClinicalRecordsClient['paginate'],
    findByExternalId: ((path: string, externalId: string, pathParams?: object) =>
      findByExternalId(GET, path, externalId, pathParams)) as ClinicalRecordsClient['findByExternalId'],
    create: ((path: string, body: unknown) => create(POST, path, body)) as unknown as ClinicalRecordsClient['create'],

    async uploadDocument(patientId, input) {
      requireId('patientId', patientId);
      const { form } = await prepareUpload(input, readPath);
      const { data, error, response } = await POST('/patients/{patientId}/documents', {
        params: { path: { patientId } },
        body: form,
        bodySerializer: (b: FormData) => b,
      });
      if (data === undefined) throw toApiError('POST /patients/{patientId}/documents', response, error);
      return data as DocumentUploadResult;
    },

    waitForDocument(patientId, ref, waitOptions) {
      requireId('patientId', patientId);
      if (!ref || (typeof ref.externalId !== 'string' && typeof ref.id !== 'string'))
        throw new TypeError('waitForDocument needs { externalId } or { id }');
      const what = 'externalId' in ref && ref.externalId !== undefined ? `document external_id=${ref.externalId}` : `document ${ref.id}`;
      return waitFor(
        async () => {
          if ('externalId' in ref && ref.externalId !== undefined) {
            const doc = await client.findByExternalId('/patients/{patientId}/documents', ref.externalId, { patientId });
            if (!doc) throw new Error(`${what} of patient ${patientId} does not exist (404)`);
            return doc;
          }
          // No get-by-id operation exists for documents: look it up in the patient's list.
          for await (const doc of client.paginate('/patients/{patientId}/documents', { path: { patientId } }))
            if (doc.id === ref.id) return doc;
          throw new Error(`${what} is not in the documents of patient ${patientId}`);
        },
        what,
        waitOptions,
      );
    },

    regenerateNote: (sessionId, body, regenerateOptions) => regenerateNote(api, sessionId, body, regenerateOptions),
  };

  return Object.defineProperty(Object.assign(api, client), 'rateLimit', {
    get: () => rateLimit,
    enumerable: true,
  }) as ClinicalRecordsClient;
}
