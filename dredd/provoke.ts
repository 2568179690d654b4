// How each transaction gets the status it expects: which ids, query, key and body its request carries. One rule
// per documented status, for any operation; the ids come from what the run created (or, for read-only resources,
// what the key can read), never from the spec's examples, which name nothing on a real deployment.
import type { Operation } from '../spec/runtime/contract.ts';
import { deref, type JsonObject } from '../spec/runtime/json-pointer.ts';
import { templateParams as params } from '../spec/runtime/operations.ts';
import { uploadMaxBytes } from '../generated/spec-values.ts';
import type { MockAccess } from './mock-access.ts';
import { uploadForm } from './multipart.ts';
import { fill, requestContent, unknownId, type Obj, type RunResources } from './resources.ts';

/** The transaction cannot run here: skipped, with this reason. */
export class Skip extends Error {}

export interface Shaped {
  /** Path relative to the base URL, with its query. */
  uri: string;
  /** undefined: the run's key; null: no key. */
  key?: string | null;
  body?: { data: Buffer | string; contentType: string };
  /** Runs last, right before Dredd sends the request: arms a mock fault that the request is to meet. */
  arm?: () => Promise<void>;
}

export interface Wanted {
  op: Operation;
  status: number;
  /** The media type of the expected response. */
  mediaType: string;
  /** The query Dredd built from the description. */
  query: URLSearchParams;
}

/** The field no request schema has: the documented 400 for an unknown field. */
const UNKNOWN_FIELD = 'dredd_unknown_field';
const PADDING_FIELD = 'dredd_padding';
const MALFORMED_ID = 'dredd-malformed-id';

/** The mock's fault behind each documented 503 (an operation without one gets no 503 from the mock). */
const FAULT_503: Record<string, string> = { extractDocument: 'extraction-not-queued', regenerateSessionNote: 'regeneration-unavailable' };

const needsMock = (what: string) => new Skip(`${what}: runs with --mock (the kit's mock provides it through /__mock)`);

export class Provoker {
  constructor(
    private readonly res: RunResources,
    private readonly mock: MockAccess | undefined,
  ) {}

  /** Can the run create (and so own) the resource this path parameter names? */
  private creatable(op: Operation, param: string): boolean {
    const member = op.template.slice(0, op.template.indexOf(`{${param}}`) - 1);
    return this.res.contract.operations.some((o) => o.method === 'POST' && o.template === member);
  }

  /** A write on a resource the run cannot create (a session): refused or not, it may touch someone's data. */
  private foreignWrite(op: Operation): string | undefined {
    return op.method === 'GET' ? undefined : params(op.template).find((p) => !this.creatable(op, p));
  }

  /** The id a path parameter takes by default: the run's own resource, or the first the key can read. */
  private async mainId(param: string): Promise<string> {
    const r = this.res;
    const main: Record<string, () => Promise<unknown>> = {
      patientId: async () => (await r.patient()).id,
      appointmentId: async () => (await r.appointment()).id,
      documentId: async () => (await r.document()).id,
      providerId: async () => (await r.provider()).id,
      noteId: async () => (await r.note()).id,
      sessionId: async () => (await r.note()).session_id,
    };
    if (!main[param]) throw new Error(`no resource known for {${param}}`);
    return String(await main[param]!());
  }

  /** A resource created for this transaction alone (a DELETE's target). */
  private async freshId(param: string): Promise<string> {
    const r = this.res;
    const fresh: Record<string, () => Promise<Obj>> = {
      patientId: () => r.createPatient('delete'),
      appointmentId: () => r.createAppointment('delete'),
      documentId: () => r.uploadDocument('delete'),
    };
    if (!fresh[param]) throw new Error(`the run cannot create a resource for {${param}}`);
    return String((await fresh[param]!()).id);
  }

  async shape(w: Wanted): Promise<Shaped> {
    const { op, status } = w;
    const ps = params(op.template);
    const last = ps.at(-1);
    const foreign = this.foreignWrite(op);
    const values: Record<string, string> = {};
    const query = new URLSearchParams(w.query);
    let key: string | null | undefined;
    let arm: (() => Promise<void>) | undefined;
    const isUpload = 'multipart/form-data' in requestContent(this.res.contract, op);
    let externalId = this.res.externalId(op.operationId);

    // Who answers: the key, or the lack of one.
    if (status === 401) key = null;
    if (status === 403) {
      if (!this.mock) throw needsMock(`needs a key without ${op.scopes.join(', ')}`);
      key = await this.mock.keyWithout(op.scopes);
      if (!key) throw new Skip(`the mock lists no key of the organization without ${op.scopes.join(', ')}`);
    }
    if (status === 429) {
      if (!this.mock) throw needsMock('a 429 needs a rate-limit fault');
      arm = () => this.mock!.fault('rate-limited');
    }
    if (status === 503) {
      const kind = FAULT_503[op.operationId];
      if (!this.mock) throw needsMock('a 503 needs a fault');
      if (!kind) throw new Skip(`the mock has no fault that makes ${op.operationId} answer 503`);
      arm = () => this.mock!.fault(kind);
    }

    // Which resource: the run's own, a fresh one to delete, one that does not exist, or a malformed id.
    for (const p of ps) {
      if (p === foreign) {
        if (status === 401 || status === 404) values[p] = unknownId(p);
        else if (!this.mock)
          throw needsMock(
            `needs a ${status === 409 ? 'session that is not ready' : 'session whose note it may rewrite'} (the API creates none)`,
          );
        else values[p] = await this.mock.session(status !== 409);
      } else if (p === last && status === 400 && !op.hasRequestBody) values[p] = MALFORMED_ID;
      else if (p === last && status === 404 && !this.lookupParam(op)) values[p] = unknownId(p);
      else if (p === last && op.method === 'DELETE' && status !== 400 && status !== 404) values[p] = await this.freshId(p);
      else values[p] = await this.mainId(p);
    }

    // What the query says: a lookup that misses, an invalid value, the format of the expected media type.
    if (status === 404 && this.lookupParam(op)) query.set(this.lookupParam(op)!, this.lookupMiss(op));
    if (status === 400 && !op.hasRequestBody && !ps.length) {
      const p = this.invalidQuery(op);
      if (!p) throw new Skip(`no way to send ${op.operationId} an invalid request`);
      query.set(p.name, p.value);
    }
    if (status >= 200 && status < 300) this.setFormat(op, w.mediaType, query);

    // The body: the request example with the run's ids, or what makes it 400, 409, 413 or 415.
    let body: Shaped['body'];
    if (status === 409 && !foreign) {
      externalId = this.res.externalId('duplicate');
      if (isUpload) await this.res.uploadDocument('original', externalId);
      else if (op.jsonBodyPointer && op.method === 'POST') await this.res.createWith(op.operationId, externalId);
      else throw new Skip(`no way to make ${op.operationId} meet an external_id already in use`);
    }
    if (isUpload) {
      const form = uploadForm(externalId, status === 400 ? 'none' : status === 413 ? 'oversized' : status === 415 ? 'text' : 'png');
      body = { data: form.body, contentType: form.contentType };
    } else if (op.jsonBodyPointer) {
      const json = await this.res.exampleBody(op, externalId);
      if (status === 400) json[UNKNOWN_FIELD] = true;
      // Larger than the largest body the document allows anywhere (the upload's x-max-bytes).
      if (status === 413) json[PADDING_FIELD] = 'x'.repeat(uploadMaxBytes + 1);
      body = { data: JSON.stringify(json), contentType: status === 415 ? 'text/plain' : 'application/json' };
    }
    const qs = query.toString();
    return { uri: fill(op.template, values) + (qs ? `?${qs}` : ''), key, body, arm };
  }

  /** The query parameter whose miss is a 404 (external_id, npi), if the operation has one. */
  private lookupParam(op: Operation): string | undefined {
    return op.parameters.find((p) => p.in === 'query' && (p.name === 'external_id' || p.name === 'npi'))?.name as string | undefined;
  }

  private lookupMiss(op: Operation): string {
    return this.lookupParam(op) === 'npi' ? unusedNpi() : this.res.externalId('missing');
  }

  /** A query parameter given a value its schema refuses: a word for an integer or an enum. */
  private invalidQuery(op: Operation): { name: string; value: string } | undefined {
    for (const p of op.parameters) {
      const s = deref(this.res.contract.doc, p.schema) as JsonObject | undefined;
      if (p.in === 'query' && s && (s.type === 'integer' || Array.isArray(s.enum))) return { name: String(p.name), value: 'dredd-invalid' };
    }
    return undefined;
  }

  /**
   * An operation answering several media types picks one by an enum query parameter whose value names it
   * (`format=ndjson` for application/x-ndjson): Dredd sends the default for every one of them.
   */
  private setFormat(op: Operation, mediaType: string, query: URLSearchParams): void {
    const subtype = mediaType.split(';')[0]!.split('/')[1]?.replace(/^x-/, '').toLowerCase();
    for (const p of op.parameters) {
      const s = deref(this.res.contract.doc, p.schema) as JsonObject | undefined;
      if (p.in === 'query' && Array.isArray(s?.enum) && query.has(String(p.name)) && (s.enum as string[]).includes(subtype!))
        query.set(String(p.name), subtype!);
    }
  }
}

/** A 10-digit NPI with a valid Luhn check digit (80840 prefix) that no seed or deployment is likely to hold. */
function unusedNpi(): string {
  const base = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const digits = `80840${base}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    const d = double ? digits[i]! * 2 : digits[i]!;
    sum += d > 9 ? d - 9 : d;
  }
  return `${base}${(10 - (sum % 10)) % 10}`;
}
