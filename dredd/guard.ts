// The one way a Dredd run talks to the target: Dredd's own requests (dredd-transport.ts), the hooks' calls and the
// mock's control API all go through a Guard, so that whatever the server does the run stays bounded and the key stays
// home: a redirect is answered back as it came and never followed (the key would travel to the Location's origin);
// each exchange has one deadline from connect to the last byte (a server that stops answering, or drips an answer,
// cannot hold the run); an answer is read up to a bound and no further (a 50 MB or endless answer cannot exhaust
// memory); every key the run sends is redacted from every answer before anything reads it (a server that echoes
// the key cannot put it into a report, whole, cut or re-encoded); and after a few exchanges in a row that got no
// answer in time (or a few more in all) the run sends nothing more (stopped()): against a server that went silent
// it ends in bounded time.
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Secrets } from './secrets.ts';

export interface Limits {
  /** Per exchange, from connect to the answer's last byte. */
  timeoutMs: number;
  /** The largest answer body read; a longer one fails the exchange. */
  maxAnswerBytes: number;
  /** Exchanges in a row without an answer in time, after which nothing more is sent. */
  silenceLimit: number;
  /** Exchanges in all without an answer in time, after which nothing more is sent (a server silent every other time). */
  timeoutLimit: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** No documented answer comes near it; the suite reads answers up to the same bound. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;
const SILENCE_LIMIT = 3;
const TIMEOUT_LIMIT = 10;

export interface Outgoing {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** The answer as sent, keys not redacted: only for the mock's control API, whose key list is what the run reads. */
  unredacted?: boolean;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An exchange that did not give a complete answer: its message says why, and is all a reporter shows of it. */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'too-large' | 'stopped' | 'network',
  ) {
    super(message);
    // Dredd's reporters print the stack: the reason is all that helps there.
    this.stack = `Error: ${message}`;
  }
}

const mb = (bytes: number) => `${+(bytes / 1024 / 1024).toFixed(1)} MB`;

export class Guard {
  readonly limits: Limits;
  readonly secrets = new Secrets();
  private silences = 0;
  private timeouts = 0;
  private stopReason?: string;

  constructor(limits: Partial<Limits> = {}) {
    this.limits = {
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxAnswerBytes: MAX_ANSWER_BYTES,
      silenceLimit: SILENCE_LIMIT,
      timeoutLimit: TIMEOUT_LIMIT,
      ...limits,
    };
  }

  /** Why the run sends nothing more, once the server stopped answering. */
  stopped(): string | undefined {
    return this.stopReason;
  }

  /** The key header a request carries is learnt as a secret even if nobody registered it. */
  private learnKeys(headers: Record<string, string>): void {
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'x-api-key' && !this.secrets.has(value)) this.secrets.add(value, '$CLINICAL_RECORDS_KEY');
  }

  private redactHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
    const out: IncomingHttpHeaders = {};
    for (const [k, v] of Object.entries(headers))
      out[k] = Array.isArray(v) ? v.map((x) => this.secrets.redact(x)) : v === undefined ? v : this.secrets.redact(v);
    return out;
  }

  send(req: Outgoing): Promise<Answer> {
    if (this.stopReason) return Promise.reject(new ExchangeError(`not sent: ${this.stopReason}`, 'stopped'));
    const headers = { ...req.headers };
    this.learnKeys(headers);
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const { timeoutMs, maxAnswerBytes } = this.limits;
    return new Promise<Answer>((resolve, reject) => {
      let done = false;
      let outgoing: ReturnType<typeof httpRequest> | undefined;
      const finish = (err: ExchangeError | undefined, answer?: Answer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.account(err);
        if (err) {
          outgoing?.destroy();
          reject(err);
        } else resolve(answer!);
      };
      const tooLarge = (what: string) =>
        finish(new ExchangeError(`${what} is larger than ${mb(maxAnswerBytes)}: not read further`, 'too-large'));
      const timer = setTimeout(
        () => finish(new ExchangeError(`no complete answer within ${timeoutMs} ms (per-request timeout)`, 'timeout')),
        timeoutMs,
      );
      try {
        const url = new URL(req.url);
        // agent: false: one connection per exchange, none left open once the run is over.
        outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: req.method, headers, agent: false }, (res) => {
          if (Number(res.headers['content-length']) > maxAnswerBytes)
            return tooLarge(`the answer (Content-Length ${res.headers['content-length']})`);
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxAnswerBytes) tooLarge('the answer');
            else chunks.push(chunk);
          });
          res.on('end', () =>
            finish(undefined, {
              status: res.statusCode ?? 0,
              headers: req.unredacted ? res.headers : this.redactHeaders(res.headers),
              body: req.unredacted ? Buffer.concat(chunks) : this.secrets.redactBytes(Buffer.concat(chunks)),
            }),
          );
          res.on('error', (e) => finish(new ExchangeError(`the answer broke off: ${e.message}`, 'network')));
          res.on('close', () => res.complete || finish(new ExchangeError('the answer broke off', 'network')));
        });
        outgoing.on('error', (e: NodeJS.ErrnoException) =>
          finish(new ExchangeError(`${e.code ?? 'request failed'}: ${e.message}`, 'network')),
        );
        outgoing.end(body);
      } catch (e) {
        finish(new ExchangeError(`not sent: ${(e as Error).message}`, 'network'));
      }
    });
  }

  /** Only timeouts count toward silence; any answer (even a refused or oversized one) shows the server is there. */
  private account(err: ExchangeError | undefined): void {
    if (err?.kind !== 'timeout') {
      if (err?.kind !== 'stopped') this.silences = 0;
      return;
    }
    const { silenceLimit, timeoutLimit, timeoutMs } = this.limits;
    this.timeouts++;
    if (++this.silences >= silenceLimit)
      this.stopReason = `the server stopped answering (${this.silences} requests in a row without an answer within ${timeoutMs} ms)`;
    else if (this.timeouts >= timeoutLimit)
      this.stopReason = `the server stopped answering (${this.timeouts} requests without an answer within ${timeoutMs} ms)`;
  }
}
