// Requests Node's HTTP parser refuses before any handler runs (headers too large, a bad or doubled Content-Length,
// Content-Length with Transfer-Encoding, an unknown method, a timeout). A missing Host is the gate's (mock/front/gate.ts). Node answers those with an empty body; the
// 'clientError' event lets a server write its own raw response instead: the documented `{ error }` JSON (400 with
// `details`), and the rate-limit headers, the refusal counted against the peer; `onRefused` hears of each (the request
// journal: the method and target as far as the request line could be read).
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FrontRefusal } from '../platform/record-refusals.ts';

/** Node's parser error code -> status and what to tell the client. */
function classify(code: string | undefined): { status: number; reason: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'request header fields too large' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, reason: 'unknown HTTP method' };
    case 'HPE_INVALID_CONTENT_LENGTH':
      return { status: 400, reason: 'invalid Content-Length' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, reason: 'Content-Length together with Transfer-Encoding' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, reason: 'invalid chunked Transfer-Encoding' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADER_TIMEOUT':
      return { status: 408, reason: 'request timed out' };
    default:
      return { status: 400, reason: `malformed HTTP request${code ? ` (${code})` : ''}` };
  }
}

const bodyOf = (status: number, reason: string) =>
  JSON.stringify(
    status === 400 ? { error: `Bad request: ${reason}`, details: { request: reason } } : { error: `${STATUS_CODES[status]}: ${reason}` },
  );

/** Method and target of the request line at the start of what the parser had read (bounded), as far as they read. */
function requestLine(raw: Buffer | undefined): { method: string; target: string } {
  const line = (raw ?? Buffer.alloc(0)).subarray(0, 16_384).toString('latin1').split('\r\n', 1)[0]!;
  const [method = '', target = ''] = line.split(' ', 2);
  return { method: /^[A-Z]{1,20}$/.test(method) ? method : '', target: target.startsWith('/') || target === '*' ? target : '' };
}

/** The raw response written for a refused request. */
function rawRefusal(status: number, reason: string, extra: Record<string, string>): string {
  const body = bodyOf(status, reason);
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close', ...extra };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${body}`;
}

export function shapeClientErrors(
  server: Server,
  rateHeaders?: (peer: string) => Record<string, string>,
  onRefused?: (refused: FrontRefusal) => void,
): void {
  const extraFor = (socket: Socket) => rateHeaders?.(socket.remoteAddress ?? 'unknown') ?? {};
  // Without a listener Node closes a CONNECT's socket without a word; the mock is no proxy.
  const refused = (status: number, reason: string, line: { method: string; target: string }) =>
    onRefused?.({
      ...line,
      status,
      error: bodyOf(status, reason),
      refusal: { by: 'front', reason: `${STATUS_CODES[status]}: ${reason}` },
      headers: {},
    });
  server.on('connect', (req: { url?: string }, socket: Socket) => {
    const reason = 'CONNECT is not supported: the mock is not a proxy';
    socket.end(rawRefusal(400, reason, extraFor(socket)));
    refused(400, reason, { method: 'CONNECT', target: req.url ?? '' });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A connection already gone, or a response already under way on it: nothing more can be written.
    if (
      err.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const { status, reason } = classify(err.code);
    socket.end(rawRefusal(status, reason, extraFor(socket)));
    refused(status, reason, requestLine((err as { rawPacket?: Buffer }).rawPacket));
  });
}
