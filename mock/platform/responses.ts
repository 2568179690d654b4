// Responses in the documented shapes, and the one JSON body reader every write operation uses.
import type { Context } from 'hono';
import { adapterOf } from './adapter.ts';
import { jsonText } from './http.ts';
import type { EngineContext, PlayedReadings, ReadingRefusal, Responses, Validator } from './deps.ts';
import { outOfBounds } from './value-bounds.ts';
import { requestHeader } from './request-header.ts';

/** Largest JSON body accepted (uploads are multipart and have their own 10 MB limit). */
const MAX_JSON_BYTES = 1024 * 1024;

/** Stateless when not streaming: one decoder serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A 4xx/5xx of the API: its JSON text is also handed to the request journal by name (`errorBody`), which otherwise
 * has to read the response back (a clone takes @hono/node-server off its fast path) or write the text a second time.
 * The platform's refusals and Responses all answer through here; a feature's own error answer may too.
 */
export function answerError(c: Context, body: object, status: number, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  c.set('errorBody', text);
  return jsonText(c, text, status, headers);
}

/** A played reading's refusal, in the documented error shape. */
const refusedByReading = (c: EngineContext, r: ReadingRefusal) =>
  answerError(c, r.details ? { error: r.error, details: r.details } : { error: r.error }, r.status);

export function createResponses(validator: Validator, readings?: PlayedReadings): Responses {
  const error: Responses['error'] = (c, status, message) => answerError(c, { error: message }, status);
  const validation: Responses['validation'] = (c, details, message = 'Validation failed') =>
    answerError(c, { error: message, details }, 400);
  return {
    error,
    validation,
    conflict: (c, existing) => answerError(c, { error: 'external_id already in use', existing }, 409),
    async readJson(c, operationId, opts) {
      const raw = await readBody(c, MAX_JSON_BYTES);
      if (raw instanceof Response) return raw;
      if (raw.length === 0) {
        if (opts?.optional) return { body: undefined };
        return validation(c, { body: 'is required' });
      }
      const type = requestHeader(c, 'content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) return error(c, 415, 'Unsupported Content-Type: expected application/json');
      let body: unknown;
      let text: string;
      try {
        text = UTF8.decode(raw);
        c.set('requestText', text);
        body = JSON.parse(text);
      } catch {
        return validation(c, { body: 'malformed JSON' });
      }
      const target = readings?.any
        ? { operationId, org: c.get('auth')?.organization_id ?? '', params: c.get('pathParams') ?? {} }
        : undefined;
      if (target) {
        const before = readings!.bodyBefore(target, body);
        if (!('body' in before)) return refusedByReading(c, before);
        body = before.body;
      }
      const checked = validator.body(operationId, body);
      if (!checked.ok) return validation(c, checked.details);
      const refused = outOfBounds(text, body);
      if (refused) return validation(c, refused);
      const further = target && readings!.bodyAfter(target, checked.value);
      return further ? refusedByReading(c, further) : { body: checked.value };
    },
  };
}

/** Reads the request body up to `limit` bytes; refuses a larger one with 413 without reading it whole. */
export async function readBody(c: EngineContext, limit: number): Promise<Uint8Array | Response> {
  const tooLarge = () => answerError(c, { error: 'Request body too large' }, 413);
  const declared = Number(requestHeader(c, 'content-length') ?? NaN);
  if (declared > limit) return tooLarge();
  // The adapter's faster way when it has one (node: straight from the socket), else the web stream.
  const fast = adapterOf(c)?.readBody?.(limit);
  const raw = fast ? await fast : await readStream(c.req.raw.body, limit);
  if (!raw) return tooLarge();
  c.set('requestBody', raw);
  return raw;
}

async function readStream(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (!stream) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) out.set(ch, at), (at += ch.byteLength);
  return out;
}
