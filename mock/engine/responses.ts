// Responses in the documented shapes, and the one JSON body reader every write operation uses.
import type { IncomingMessage } from 'node:http';
import type { EngineContext, Responses, Validator } from './deps.ts';

/** Largest JSON body accepted (uploads are multipart and have their own 10 MB limit). */
const MAX_JSON_BYTES = 1024 * 1024;

/** Stateless when not streaming: one decoder serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function createResponses(validator: Validator): Responses {
  const error: Responses['error'] = (c, status, message) => c.json({ error: message }, status);
  const validation: Responses['validation'] = (c, details, message = 'Validation failed') => c.json({ error: message, details }, 400);
  return {
    error,
    validation,
    conflict: (c, existing) => c.json({ error: 'external_id already in use', existing }, 409),
    async readJson(c, operationId, opts) {
      const raw = await readBody(c, MAX_JSON_BYTES);
      if (raw instanceof Response) return raw;
      if (raw.length === 0) {
        if (opts?.optional) return { body: undefined };
        return validation(c, { body: 'is required' });
      }
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type)) return error(c, 415, 'Unsupported Content-Type: expected application/json');
      let body: unknown;
      try {
        body = JSON.parse(UTF8.decode(raw));
      } catch {
        return validation(c, { body: 'malformed JSON' });
      }
      const checked = validator.body(operationId, body);
      return checked.ok ? { body: checked.value } : validation(c, checked.details);
    },
  };
}

/** Reads the request body up to `limit` bytes; refuses a larger one with 413 without reading it whole. */
async function readBody(c: EngineContext, limit: number): Promise<Uint8Array | Response> {
  const tooLarge = () => c.json({ error: 'Request body too large' }, 413);
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > limit) return tooLarge();
  // Under @hono/node-server, straight from the socket: building a web Request and its stream costs more than the
  // request itself. Elsewhere (app.request in tests), through the web stream.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const raw = incoming && !incoming.readableDidRead ? await readIncoming(incoming, limit) : await readStream(c.req.raw.body, limit);
  return raw ?? tooLarge();
}

/** The whole body, or undefined past `limit` (the rest is left for the server to drain). */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        incoming.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    const onClose = () => onError(new Error('request body aborted'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
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
