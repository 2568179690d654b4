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
import { FAULT_HEADER, readFaultMark, type TransportFault } from '../platform/network-faults.ts';

/**
 * After half the body is handed to the kernel, the reset waits this long: a reset discards what the peer has not
 * yet read, and the fault is a reset mid-response, after some bytes arrived.
 */
const RESET_AFTER_MS = 50;

type Callback = (err?: Error | null) => void;
const callbackOf = (args: readonly unknown[]) => args.find((a): a is Callback => typeof a === 'function');

export class FaultingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  #fault: TransportFault | undefined;
  /** A reset's body, as written, until end(). */
  #body: Buffer[] = [];

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const headers = rest.find((a): a is OutgoingHttpHeaders => typeof a === 'object' && a !== null && !Array.isArray(a));
    const fault = readFaultMark(String(headers?.[FAULT_HEADER] ?? this.getHeader(FAULT_HEADER) ?? ''));
    if (!fault) return ServerResponse.prototype.writeHead.apply(this, [statusCode, ...rest] as never) as this;
    this.#fault = fault;
    const socket = this.req.socket;
    if (fault.kind === 'drop') socket.destroy();
    else if (fault.kind === 'timeout') holdThenClose(socket, fault.holdMs);
    else ServerResponse.prototype.writeHead.apply(this, [statusCode, ...rest] as never);
    return this;
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (!this.#fault) return ServerResponse.prototype.write.apply(this, [chunk, ...rest] as never);
    this.#keep(chunk, rest);
    queueMicrotask(() => callbackOf(rest)?.());
    return true;
  }

  override end(...args: unknown[]): this {
    if (!this.#fault) return ServerResponse.prototype.end.apply(this, args as never) as this;
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    if (chunk !== undefined && chunk !== null) this.#keep(chunk, args.slice(1));
    if (this.#fault.kind === 'reset') this.#resetMidway();
    queueMicrotask(() => callbackOf(args)?.());
    return this;
  }

  #keep(chunk: unknown, rest: readonly unknown[]) {
    if (this.#fault?.kind !== 'reset') return;
    const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
    this.#body.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk as Uint8Array));
  }

  /** Half the body, then a TCP reset once the kernel has it (RST rather than FIN: SO_LINGER 0). */
  #resetMidway() {
    const socket = this.req.socket;
    const body = Buffer.concat(this.#body);
    this.#body = [];
    const reset = () => void setTimeout(() => socket.resetAndDestroy(), RESET_AFTER_MS).unref();
    const half = body.subarray(0, Math.floor(body.length / 2));
    if (half.length) ServerResponse.prototype.write.apply(this, [half, reset] as never);
    else {
      this.flushHeaders();
      reset();
    }
  }
}

/** Holds the connection without a byte, then closes it; the client closing first ends the wait. */
function holdThenClose(socket: Socket, ms: number): void {
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
