// What the events simulator reads from the contract at run time: the event kinds (the `webhooks` keys), the payload
// schema of each, its field order (for XML and Form Data) and the media types a delivery may use. Nothing here
// restates a schema: it is all looked up in the bundled spec (generated/openapi.json) and compiled with ajv.
import type { ValidateFunction } from 'ajv';
import { bundleRef, createAjv, loadBundle } from '../../../spec/runtime/bundle.ts';
import { deref, type Json, type JsonObject } from '../../../spec/runtime/json-pointer.ts';

interface EventContract {
  /** The event kind, e.g. NOTE_CREATED. */
  event: string;
  /** The payload's component schema name, e.g. NoteEvent. */
  schemaName: string;
  /** Payload fields in schema order. */
  fields: readonly string[];
  /** Media types the spec lists for the delivery body. */
  mediaTypes: readonly string[];
  validate: ValidateFunction;
}

export interface EventsContract {
  kinds: readonly string[];
  byEvent: ReadonlyMap<string, EventContract>;
}

let cached: EventsContract | undefined;

/** Built once per process: ajv compilation is the slow part. */
export function eventsContract(): EventsContract {
  return (cached ??= buildContract(loadBundle()));
}

function buildContract(bundle: JsonObject): EventsContract {
  const ajv = createAjv(bundle);
  const webhooks = (bundle.webhooks ?? {}) as JsonObject;
  const byEvent = new Map<string, EventContract>();
  for (const [event, item] of Object.entries(webhooks)) {
    const post = (item as JsonObject).post as JsonObject | undefined;
    const body = deref(bundle, post?.requestBody) as JsonObject | undefined;
    const content = (body?.content ?? {}) as JsonObject;
    const jsonSchema = (content['application/json'] as JsonObject | undefined)?.schema as JsonObject | undefined;
    const ref = jsonSchema?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/'))
      throw new Error(`spec: webhook ${event} has no application/json schema $ref under components/schemas`);
    const schema = deref(bundle, jsonSchema as Json) as JsonObject;
    byEvent.set(event, {
      event,
      schemaName: ref.slice('#/components/schemas/'.length),
      fields: Object.keys((schema.properties ?? {}) as JsonObject),
      mediaTypes: Object.keys(content),
      validate: ajv.getSchema(bundleRef(ref)) ?? ajv.compile({ $ref: bundleRef(ref) }),
    });
  }
  return { kinds: [...byEvent.keys()], byEvent };
}

/** ajv errors as one line: "/timestamp must match pattern ...; /note_url must match format uri". */
export function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}
