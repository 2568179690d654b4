// The contract between the engine's platform (HTTP, auth, rate limits, store, validation, clock, faults)
// and the features that model resources (patients, documents, notes, ...), events and control.
// A feature is built from EngineDeps by its factory, owns its state and never reaches for globals, so tests can build
// an engine per case.
import type { Context, Hono } from 'hono';
import type { Exchanged, Refusal } from './journal-entry.ts';
import type { KeyCheck } from './keys.ts';
import type { SpecOperation } from './spec.ts';
import type { readingsCatalogue } from '../../generated/readings.ts';

/** A reading's id in spec/readings.yaml. */
export type ReadingId = (typeof readingsCatalogue)[number]['id'];

/** Who is calling: set by the auth middleware before any API route runs. */
export interface AuthInfo {
  key_id: string;
  organization_id: string;
  /** The provider that owns the key: default for `provider_id` on create. */
  provider_id: string;
  scopes: readonly string[];
}

/**
 * What the platform's middleware hand each other and the features, by name, before any API route runs: checkKey sets
 * `keyCheck`; routeOperation sets `operation`, `operationId` (the spec's id of the matched operation) and
 * `pathParams`; authenticate sets `auth`.
 */
export type EngineEnv = {
  Variables: {
    /** The presented X-API-Key, hashed and looked up once per request (rate limit and auth read it). */
    keyCheck: KeyCheck;
    operation: SpecOperation;
    operationId: string;
    /** The path's parameters as matched against the operation's template, decoded, not yet validated. */
    pathParams: Record<string, string>;
    auth: AuthInfo;
    /** The JSON body as read by readJson (the request journal keeps its start); unset when never read. */
    requestBody: Uint8Array;
    /**
     * The same body decoded (readJson, once its type is JSON): the request journal keeps this text instead of the
     * bytes, one string for the collector to carry where a Buffer is three objects.
     */
    requestText: string;
    /** The body of an error answer, as answerError sent it (the request journal shows it without reading the response back). */
    errorBody: string;
    /** Set by corsCheck when the page's origin may not read the answer: the request journal shows why. */
    refusal: Refusal;
    /** Headers set on the transport's own response (responseHeaders: the rate-limit headers), for a reading to restate. */
    sentHeaders: Readonly<Record<string, string>>;
    /** --upstream: the exchange with the upstream and its violations (mock/upstream/proxy.ts), for the journal. */
    upstream: Exchanged;
    /** A multipart form as read (the documents upload): its text fields and its file's name and size, for the journal. */
    form: UploadForm;
    /** A network fault this request met, as it reads (network-faults.ts): `dropped`, `timed out after 1000 ms`, ... */
    fault: NetworkFaultEffect;
  };
};
export type EngineContext = Context<EngineEnv>;

/** A multipart form's shape, kept so that "copy as curl" can send it again (the file's bytes are never kept). */
export interface UploadForm {
  fields: Record<string, string>;
  file?: { filename: string; bytes: number };
}

/** What a network fault did to one request, for the journal, the dashboard and the HAR. */
export interface NetworkFaultEffect {
  kind: NetworkFaultKind;
  /** As it reads: `dropped`, `timed out after 1000 ms`, `reset mid-answer`, `malformed body`, `delayed 312 ms`. */
  text: string;
  /** How long the client waited on it when the engine cannot time it (a timeout's hold, acted out by the transport). */
  heldMs?: number;
}
/** An API route's answer, once the platform's checks have passed; `P`, its path, types `c.req.param`. */
export type RouteHandler<P extends string = string> = (c: Context<EngineEnv, P>) => Response | Promise<Response>;
/** Where a feature registers its API routes (paths relative to /ext-api/v1); pipeline.ts's routeTable builds it. */
export interface EngineApp {
  get<P extends string>(path: P, route: RouteHandler<P>): void;
  post<P extends string>(path: P, route: RouteHandler<P>): void;
  patch<P extends string>(path: P, route: RouteHandler<P>): void;
  delete<P extends string>(path: P, route: RouteHandler<P>): void;
}

/** Raised by Collection.insert when a row of any organization has the id already (a generated id drawn twice). */
export class DuplicateId extends Error {
  constructor(
    collection: string,
    readonly id: string,
  ) {
    super(`${collection}: duplicate id ${id}`);
  }
}

/** Raised by Collection.insert when the external_id is already used in the organization. */
export class ExternalIdConflict extends Error {
  constructor(readonly existing: { id: string; external_id: string }) {
    super('external_id already in use');
  }
}

/**
 * One organization-scoped collection of rows. Every method sees only rows of `org`, so a row of
 * another organization is indistinguishable from a missing one. Writes are durable when the mock
 * runs with --state: a method returns only after the write is on disk.
 */
export interface Collection<T extends { id: string }> {
  get(org: string, id: string): T | undefined;
  /** All rows of the organization in creation order. */
  all(org: string): readonly T[];
  /** Rows [offset, offset+limit) in creation order, without copying the whole collection. */
  page(org: string, offset: number, limit: number): readonly T[];
  count(org: string): number;
  findByExternalId(org: string, externalId: string): T | undefined;
  /** Inserts; throws ExternalIdConflict when row.external_id (if any) is already used in org. */
  insert(org: string, row: T): T;
  /** Replaces the row with the same id (external_id cannot change through put). */
  put(org: string, row: T): T;
  delete(org: string, id: string): boolean;
  /** The organization that owns a row id, for control routes that get only an id. */
  orgOf(id: string): string | undefined;
}

/** Why a stored blob cannot be served as written (BlobStore.verify). */
export type BlobProblem = { kind: 'missing' } | { kind: 'size'; bytes: number } | { kind: 'digest' };

/** Binary payloads (uploaded files), kept beside the state file when --state is given. */
export interface BlobStore {
  put(id: string, bytes: Uint8Array): void;
  get(id: string): Uint8Array | undefined;
  delete(id: string): void;
  /**
   * Whether the blob is still what was written: present, `size` bytes, and (where its digest was kept: --state) the
   * same SHA-256. Undefined when it is. Files beside a --state file can be cut short or removed by hand.
   */
  verify(id: string, size: number): BlobProblem | undefined;
}

export interface Store {
  /** A named collection; created on first use; the name is its persistence key. */
  collection<T extends { id: string }>(name: string): Collection<T>;
  blobs: BlobStore;
}

/** Field errors for a 400 `{ error, details }`: field path -> message. */
export type FieldErrors = Record<string, string>;

export type Checked<T> = { ok: true; value: T } | { ok: false; details: FieldErrors };

/** Validation compiled once from the bundled spec (generated/openapi.json) at start. */
export interface Validator {
  /** A JSON request body against the operation's request body schema. */
  body(operationId: string, body: unknown): Checked<unknown>;
  /** Query parameters of the operation, coerced to their schema types, defaults applied; unknown ones ignored. */
  query(operationId: string, query: Record<string, string | undefined>): Checked<Record<string, unknown>>;
  /** Path parameters of the operation. */
  params(operationId: string, params: Record<string, string>): Checked<Record<string, string>>;
  /** Any component schema, e.g. validator.schema('NoteEvent')(payload). */
  schema(name: string): (value: unknown) => Checked<unknown>;
}

/** Responses in the documented shapes; every one carries the rate-limit headers (set by middleware). */
export interface Responses {
  error(c: EngineContext, status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 503, message: string): Response;
  /** 400 `{ error, details }`; `message` defaults to "Validation failed". */
  validation(c: EngineContext, details: FieldErrors, message?: string): Response;
  conflict(c: EngineContext, existing: { id: string; external_id: string }): Response;
  /**
   * Reads and validates a JSON body for the operation: wrong Content-Type -> 415, too large -> 413 (not read
   * whole), malformed JSON -> 400, schema failure -> 400 with details. Returns the body or the error Response.
   * `optional` accepts an empty body (regenerate).
   */
  readJson(c: EngineContext, operationId: string, opts?: { optional?: boolean }): Promise<{ body: unknown } | Response>;
}

export interface Clock {
  now(): Date;
  /** now() as ISO 8601 text (what `created_at` and the like hold), formatted once per millisecond. */
  stamp(): string;
  /** Factor applied to every simulated duration (1 = as documented; 0.01 = a hundred times faster). */
  readonly timeScale: number;
  /** Runs fn after `ms` simulated milliseconds (ms * timeScale real). Cancelled by reset and close. */
  after(ms: number, fn: () => void): () => void;
}

/** Faults a feature (or the rate limiter) consumes when its effect is due. */
export type CountedFaultKind = 'extraction-fails' | 'extraction-not-queued' | 'regeneration-unavailable' | 'rate-limited';
/** Faults of the network between client and API, taken as a request arrives (platform/network-faults.ts). */
export type NetworkFaultKind = 'latency' | 'timeout' | 'drop' | 'reset' | 'malformed';
export type FaultKind = CountedFaultKind | 'http' | NetworkFaultKind;

export interface Faults {
  /**
   * Consumes one occurrence of a counted fault; true when it applies to this call. `scope` is the request's
   * X-Mock-Fault-Scope header: a fault of that scope, else an unscoped one, applies.
   */
  take(kind: CountedFaultKind, scope?: string): boolean;
  /** Consumes a fault of exactly this scope (never an unscoped one): for effects that happen after the request. */
  takeScoped(kind: CountedFaultKind, scope: string): boolean;
}

export type NoteEventKind = 'NOTE_CREATED' | 'NOTE_REGENERATED' | 'NOTE_UPDATED';

/** What features report; the events simulator turns these into webhook deliveries. */
export interface Events {
  note(
    org: string,
    kind: NoteEventKind,
    note: { id: string; session_id: string; patient_id: string; template_id: string },
    source: string | null,
  ): void;
  documentStatusChanged(
    org: string,
    doc: { id: string; patient_id: string; external_id: string | null; status: 'completed' | 'failed'; error: string | null },
  ): void;
}

export interface EngineConfig {
  /** Public base URL of the API as clients see it, e.g. http://127.0.0.1:4010/ext-api/v1 (for absolute URLs). */
  publicBaseUrl: string;
}

export interface EngineDeps {
  store: Store;
  validator: Validator;
  responses: Responses;
  clock: Clock;
  faults: Faults;
  events: Events;
  config: EngineConfig;
  /** The seed's organization ids (kept even when state is restored from --state). */
  organizations: readonly string[];
  /** The readings of the document this engine plays (spec/readings.yaml; none: the kit's reading everywhere). */
  readings: PlayedReadings;
}

/** Where a JSON body goes: its operation, the caller's organization and the path's parameters. */
export interface BodyTarget {
  operationId: string;
  org: string;
  params: Record<string, string>;
}

/** A refusal a played reading makes where the kit's reading would not. */
export type ReadingRefusal = { status: 400 | 409; error: string; details?: FieldErrors };

/** The played readings as the platform and the features ask them (mock/readings/play.ts builds it). */
export interface PlayedReadings {
  readonly ids: readonly ReadingId[];
  readonly any: boolean;
  has(id: ReadingId): boolean;
  /** The query as the kit's validation must see it, or the field errors of that server's 400. */
  query(
    operationId: string,
    query: Record<string, string | undefined>,
  ): { query: Record<string, string | undefined> } | { refused: FieldErrors };
  /** Before the kit validates a body: the body in the kit's terms, or that server's refusal. */
  bodyBefore(target: BodyTarget, body: unknown): { body: unknown } | ReadingRefusal;
  /** After the kit's validation passed: that server's further refusal, if any. */
  bodyAfter(target: BodyTarget, body: unknown): ReadingRefusal | undefined;
}

/** A seed file: the default one is mock/seed/default.json; users pass their own with --seed. */
export interface SeedFile {
  organizations: Array<{ id: string; name: string }>;
  /** Raw keys (the banner prints them); the engine stores only their hashes. */
  keys: Array<{
    key: string;
    organization_id: string;
    provider_id: string;
    scopes: string[];
    state: 'active' | 'expired' | 'revoked';
    label?: string;
  }>;
  /** Each feature reads its own sections (providers, patients, appointments, documents, sessions, notes, templates). */
  [section: string]: unknown;
}

/** A slice of the engine, built by its FeatureFactory: its routes, control routes, seed sections and background work. */
export interface Feature {
  name: string;
  /** API routes, relative to /ext-api/v1; rate limit, auth, scope and path ids already checked. */
  routes?(app: EngineApp): void;
  /** Control routes under /__mock (no API key, loopback only). */
  control?(app: Hono): void;
  /** Loads the feature's sections of the seed into the store (called on start and on reset). */
  seed?(seed: SeedFile): void | Promise<void>;
  /** Resumes background work after a restart from a --state file (e.g. re-queues extractions in flight). */
  resume?(): void;
}

/** Builds a feature for one engine; whatever state the feature keeps lives in what this returns. */
export type FeatureFactory = (deps: EngineDeps) => Feature;
