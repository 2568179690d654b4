// What a Dredd run works on: the resources it creates (each with the run's external_id prefix, deleted again at the
// end, newest first, also those a transaction created), and the few it only reads (a provider, a note). Every call
// goes to the API with the run's key through the run's Guard (no redirect followed, a deadline, a bounded answer, the
// key redacted from what comes back); nothing here changes or deletes data the run did not create.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Contract, Operation } from '../spec/runtime/contract.ts';
import { deref, resolvePointer, type Json, type JsonObject } from '../spec/runtime/json-pointer.ts';
import { apiKeyHeader } from '../generated/spec-values.ts';
import type { Guard } from './guard.ts';
import { uploadForm } from './multipart.ts';

export type Obj = Record<string, unknown>;

export interface Answer {
  status: number;
  json: unknown;
  text: string;
}

export interface CallOptions {
  json?: unknown;
  body?: Buffer;
  contentType?: string;
  /** Another key, or null to send none. */
  key?: string | null;
}

/** Thrown when a resource a transaction needs cannot be had: the transaction fails with this message. */
class MissingResource extends Error {}

const dataOf = (a: Answer): Obj | undefined => {
  const d = (a.json as { data?: unknown } | undefined)?.data;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Obj) : undefined;
};

export class RunResources {
  readonly prefix: string;
  private counter = 0;
  private readonly memo = new Map<string, Promise<Obj>>();
  private readonly created: Array<{ deletePath: string; label: string }> = [];
  private readonly deleted = new Set<string>();

  constructor(
    readonly base: string,
    private readonly key: string,
    readonly contract: Contract,
    private readonly guard: Guard,
    runId: string = randomBytes(4).toString('hex'),
  ) {
    this.prefix = `drd-${runId}-`;
  }

  externalId(label: string): string {
    return `${this.prefix}${label}-${++this.counter}`;
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    const key = opts.key === undefined ? this.key : opts.key;
    if (key !== null) headers[apiKeyHeader] = key;
    let body: Buffer | string | undefined = opts.body;
    if (opts.json !== undefined) body = JSON.stringify(opts.json);
    if (body !== undefined) headers['Content-Type'] = opts.contentType ?? 'application/json';
    const res = await this.guard.send({ method, url: this.base + path, headers, body });
    const text = res.body.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    const answer = { status: res.status, json, text };
    this.observe(method, path, answer);
    return answer;
  }

  /**
   * Watches every answer (the run's own calls and Dredd's transactions): a 2xx POST to a collection that has a
   * DELETE for its members created something, whatever the request meant to provoke; a DELETE that answered 2xx or
   * 404 needs no cleanup.
   */
  observe(method: string, path: string, answer: Answer): void {
    const plain = path.split('?')[0]!.replace(/\/$/, '');
    if (method === 'DELETE' && ((answer.status >= 200 && answer.status < 300) || answer.status === 404)) this.deleted.add(plain);
    if (method !== 'POST' || answer.status < 200 || answer.status > 299) return;
    const data = dataOf(answer);
    if (!data || (typeof data.id !== 'string' && typeof data.id !== 'number')) return;
    const op = this.contract.match('POST', plain);
    const member =
      op &&
      this.contract.operations.find(
        (o) =>
          o.method === 'DELETE' && o.template.startsWith(`${op.template}/{`) && !o.template.slice(op.template.length + 2).includes('/'),
      );
    if (!member) return; // not a create (extract, regenerate)
    const deletePath = `${plain}/${encodeURIComponent(String(data.id))}`;
    if (!this.created.some((c) => c.deletePath === deletePath))
      this.created.push({ deletePath, label: `${op!.operationId} ${String(data.id)}` });
  }

  /** Deletes what the run created, newest first; returns what could not be removed. */
  async cleanup(): Promise<{ removed: number; leftovers: string[] }> {
    let removed = 0;
    const leftovers: string[] = [];
    for (const c of [...this.created].reverse()) {
      if (this.deleted.has(c.deletePath)) {
        removed++;
        continue;
      }
      try {
        const a = await this.call('DELETE', c.deletePath);
        if ((a.status >= 200 && a.status < 300) || a.status === 404) removed++;
        else leftovers.push(`${c.label}: DELETE ${c.deletePath} answered ${a.status}`);
      } catch (err) {
        leftovers.push(`${c.label}: ${(err as Error).message}`);
      }
    }
    return { removed, leftovers };
  }

  private once(name: string, make: () => Promise<Obj>): Promise<Obj> {
    let p = this.memo.get(name);
    if (!p) this.memo.set(name, (p = make()));
    return p;
  }

  private createdData(what: string, a: Answer): Obj {
    const data = dataOf(a);
    if (a.status < 200 || a.status > 299 || !data || data.id === undefined)
      throw new MissingResource(`could not create ${what}: the API answered ${a.status} ${a.text.slice(0, 200)}`);
    return data;
  }

  /** The JSON request example of an operation with the run's values bound (see bind). */
  async exampleBody(op: Operation, externalId: string): Promise<Obj> {
    const content = requestContent(this.contract, op)['application/json'] as JsonObject | undefined;
    const examples = content?.examples as Record<string, { value?: Json }> | undefined;
    const example = (content?.example ?? Object.values(examples ?? {})[0]?.value ?? {}) as Obj;
    // What the run creates carries its prefix in external_id, also when the example sets none.
    const schema = deref(this.contract.doc, content?.schema) as JsonObject | undefined;
    const hasExternalId = !!(schema?.properties as JsonObject | undefined)?.external_id;
    return this.bind(hasExternalId ? { ...example, external_id: externalId } : example, externalId);
  }

  /**
   * The example's ids replaced by ones that exist for this key: patient_id the run's patient, provider_id a provider
   * of the organization, external_id the run's own; template_id is dropped (optional; the example's template is not
   * the organization's, and the session's own is the default).
   */
  async bind(example: Obj, externalId: string): Promise<Obj> {
    const out: Obj = {};
    for (const [k, v] of Object.entries(example)) {
      if (k === 'template_id') continue;
      out[k] =
        k === 'external_id'
          ? externalId
          : k === 'patient_id'
            ? (await this.patient()).id
            : k === 'provider_id'
              ? (await this.provider()).id
              : v;
    }
    return out;
  }

  /** A resource made with the create operation's own request example (JSON), its ids bound to the run's. */
  async createWith(operationId: string, externalId: string): Promise<Obj> {
    const op = this.contract.byId(operationId);
    const a = await this.call('POST', fill(op.template, {}), { json: await this.exampleBody(op, externalId) });
    return this.createdData(`a resource with ${operationId}`, a);
  }

  createPatient = (label: string, externalId = this.externalId(label)) => this.createWith('createPatient', externalId);
  createAppointment = (label: string, externalId = this.externalId(label)) => this.createWith('createAppointment', externalId);

  async uploadDocument(label: string, externalId = this.externalId(label)): Promise<Obj> {
    const form = uploadForm(externalId);
    const path = fill(this.contract.byId('uploadDocument').template, { patientId: String((await this.patient()).id) });
    return this.createdData('a document', await this.call('POST', path, { body: form.body, contentType: form.contentType }));
  }

  patient = () => this.once('patient', () => this.createPatient('patient'));
  appointment = () => this.once('appointment', () => this.createAppointment('appointment'));
  document = () => this.once('document', () => this.uploadDocument('document'));
  provider = () => this.once('provider', () => this.first('/providers'));
  note = () => this.once('note', () => this.first('/notes'));

  private async first(path: string): Promise<Obj> {
    const a = await this.call('GET', path);
    const first = (a.json as { data?: Obj[] } | undefined)?.data?.[0];
    if (a.status !== 200 || !first) throw new MissingResource(`GET ${path} answered ${a.status} without an item to read`);
    return first;
  }
}

/** The request body's media types of an operation (none when it takes no body). */
export function requestContent(contract: Contract, op: Operation): JsonObject {
  const operation = resolvePointer(contract.doc, op.pointer.replace(/^#/, '')) as JsonObject;
  return ((contract.deref(operation.requestBody) as JsonObject | undefined)?.content ?? {}) as JsonObject;
}

/** A path template with its parameters filled in (encoded). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(values[name]!);
  });
}

/** An id of the right form that names nothing: digits for a patient, else a fresh UUID. */
export function unknownId(param: string): string {
  return param === 'patientId'
    ? `9${BigInt(`0x${randomBytes(7).toString('hex')}`)
        .toString()
        .padStart(18, '0')}`
    : randomUUID();
}
