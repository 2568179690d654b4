// The node transport's half of the network faults (mock/platform/network-faults.ts): an answer the engine marked with
// FAULT_HEADER is acted out on the client's connection instead of being sent. The public servers (engine-only, and
// the default mode's front) create their responses as FaultingResponse, so whatever writes the answer (@hono/node-
// server, the front's writeUpstream) goes through here; the default mode's internal engine server keeps node's plain
// response, so the mark reaches the front across the loopback hop.
//   drop     the connection is closed, nothing written (curl: "Empty reply from server");
//   timeout  nothing is written and the connection is held, then closed after the mark's hold (at most 120 s);
//   reset    the status line, the headers (Content-Length of the whole body) and half the body, then a TCP reset.
import type { Socket } from 'node:net';
import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { FAULT_HEADER, type HeldReport, readFaultMark, type TransportFault } from '../platform/network-faults.ts';

/**
 * After half the body is handed to the kernel, the reset waits this long: a reset discards what the peer has not
 * yet read, and the fault is a reset mid-response, after some bytes arrived.
 */
const RESET_AFTER_MS = 50;

type Callback = (err?: Error | null) => void;

// Every response of the public servers passes these: no array or closure is made for one that carries no mark.
export class FaultingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  #fault: TransportFault | undefined;
  /** Where a timeout's real wait is reported (the engine's journal): set by reportingResponses' subclass. */
  protected readonly onHeld: HeldReport | undefined = undefined;
  /** A reset's body, as written, until end(). */
  #body: Buffer[] = [];

  /** The mark comes with the answer's own headers (what @hono/node-server and the front's writeUpstream pass here). */
  override writeHead(statusCode: number, a?: unknown, b?: unknown): this {
    const headers = (typeof a === 'object' && a !== null ? a : b) as OutgoingHttpHeaders | readonly unknown[] | undefined;
    const mark = headers && !Array.isArray(headers) ? (headers as OutgoingHttpHeaders)[FAULT_HEADER] : undefined;
    const fault = mark === undefined ? undefined : readFaultMark(String(mark));
    if (!fault) return super.writeHead(statusCode, a as never, b as never);
    this.#fault = fault;
    const socket = this.req.socket;
    if (fault.kind === 'drop') socket.destroy();
    else if (fault.kind === 'timeout')
      holdThenClose(socket, fault.holdMs, (ms, gaveUp) => {
        if (fault.entry !== undefined) this.onHeld?.(fault.entry, ms, gaveUp);
      });
    else super.writeHead(statusCode, a as never, b as never);
    return this;
  }

  override write(chunk: unknown, a?: unknown, b?: unknown): boolean {
    if (!this.#fault) return super.write(chunk, a as never, b as never);
    this.#keep(chunk, a);
    const done = typeof a === 'function' ? a : b;
    if (typeof done === 'function') queueMicrotask(() => (done as Callback)());
    return true;
  }

  override end(chunk?: unknown, a?: unknown, b?: unknown): this {
    if (!this.#fault) return super.end(chunk as never, a as never, b as never);
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.#keep(chunk, a);
    if (this.#fault.kind === 'reset') this.#resetMidway();
    const done = [chunk, a, b].find((x) => typeof x === 'function');
    if (done) queueMicrotask(() => (done as Callback)());
    return this;
  }

  #keep(chunk: unknown, encodingArg: unknown) {
    if (this.#fault?.kind !== 'reset') return;
    const encoding = typeof encodingArg === 'string' ? (encodingArg as BufferEncoding) : 'utf8';
    this.#body.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk as Uint8Array));
  }

  /** Half the body, then a TCP reset once the kernel has it (RST rather than FIN: SO_LINGER 0). */
  #resetMidway() {
    const socket = this.req.socket;
    const body = Buffer.concat(this.#body);
    this.#body = [];
    const reset = () => void setTimeout(() => socket.resetAndDestroy(), RESET_AFTER_MS).unref();
    const half = body.subarray(0, Math.floor(body.length / 2));
    if (half.length) super.write(half, reset);
    else {
      this.flushHeaders();
      reset();
    }
  }
}

/**
 * Holds the connection without a byte, then closes it; the client closing first ends the wait. `ended` gets how long
 * it was held and whether the client left first.
 */
function holdThenClose(socket: Socket, ms: number, ended: (ms: number, clientGaveUp: boolean) => void): void {
  const t0 = Date.now();
  let done = false;
  const end = (gaveUp: boolean) => {
    if (done) return;
    done = true;
    ended(gaveUp ? Math.min(ms, Date.now() - t0) : ms, gaveUp);
  };
  const timer = setTimeout(() => {
    end(false);
    socket.destroy();
  }, ms);
  timer.unref();
  socket.once('close', () => {
    clearTimeout(timer);
    end(true);
  });
}

/** FaultingResponse reporting each timeout's real wait to `onHeld` (the engine's journal), for a server's options. */
export function reportingResponses(onHeld: HeldReport): typeof ServerResponse {
  return class extends FaultingResponse {
    protected override readonly onHeld = onHeld;
  } as typeof ServerResponse;
}
