// What coverage-honesty.test.ts plants in front of the mock to break one rule alone: a row per defect (the proxy's
// transformers of broken-proxy.ts, or what a planted sender delivers to the suite's receiver), the helpers the rows
// are written with, and the receiver that plays a planted sender. Test-only.
import { Receiver, type Delivery } from '../target/receiver.ts';
import { jsonOf, setJson, startBrokenProxy, type ProxyRequest, type ProxyResponse } from './broken-proxy.ts';
import type { Breaks } from './check-file.ts';

export type Payload = Record<string, unknown>;
/** A planted sender: each payload as the mock sent it (its n-th, and how the receiver answered it) → what arrives. */
export type Deliver = (payload: Payload, n: number, answered: number) => Payload | undefined;

export interface Defect {
  /** The rule the planted server breaks, and nothing else. */
  rule: string;
  /** What it does wrong (the test's title). */
  defect: string;
  /** A check that sends the requests a response check judges, when only response checks claim the rule. */
  driver?: string;
  /** The proxy's transformers (a function: state of their own for each run). */
  breaks?: Breaks | (() => Breaks);
  /** What the planted sender delivers instead of each webhook payload (n counts them); undefined: nothing at all. */
  deliver?: Deliver;
  /** Checks that must fail on it, beyond "some check that claims the rule". */
  caughtBy?: string[];
}

/** A claim dropped because no check fails on the defect: the checks that made it pass on this server. */
export interface DroppedClaim extends Defect {
  formerly: string[];
}

/** The mock's keys a row may swap between. */
export interface DefectKeys {
  main: string;
  otherOrg: string;
  expired: string;
  scoped: Array<{ key: string; scopes: string[] }>;
}

/** Keys holding `scope` without `*`. */
export const keysWith = (keys: DefectKeys, scope: string) => keys.scoped.filter((k) => k.scopes.includes(scope)).map((k) => k.key);

/** The path under the base address, without the query: /patients/123. */
export const pathOf = (req: ProxyRequest) => req.url.split('?')[0]!.replace(/^\/ext-api\/v1/, '');
export const queryOf = (req: ProxyRequest) => new URL(req.url, 'http://proxy').searchParams;
/** Does the request go to `method` `path`? */
export const to = (method: string, path: RegExp) => (req: ProxyRequest) => req.method === method && path.test(pathOf(req));

/** Rewrites the JSON body of the answers to requests that `when` picks (status too, when `status` is given). */
export function answers(
  when: (req: ProxyRequest, res: ProxyResponse) => boolean,
  edit: (body: any, req: ProxyRequest) => unknown,
  status?: number,
): Breaks {
  return {
    response(res, req) {
      if (!when(req, res)) return;
      const b = jsonOf(res.body);
      if (b === undefined) return;
      const replaced = edit(b, req);
      setJson(res, replaced === undefined ? b : replaced);
      if (status !== undefined) res.status = status;
    },
  };
}

/** Each resource of an answer's data: the object, or each item of the list. */
export function eachItem(body: any, fn: (item: any) => void): void {
  const d = body?.data;
  for (const x of Array.isArray(d) ? d : d && typeof d === 'object' ? [d] : []) if (x && typeof x === 'object') fn(x);
}

/** Rewrites every resource of the answers to `method` `path` (2xx only). */
export const items = (method: string, path: RegExp, fn: (item: any) => void): Breaks =>
  answers(
    (req, res) => to(method, path)(req) && res.status < 300,
    (b) => eachItem(b, fn),
  );

/** Sets a query parameter (or deletes it: undefined) of the requests `when` picks. */
export const query = (when: (req: ProxyRequest) => boolean, name: string, value?: (req: ProxyRequest) => string | undefined): Breaks => ({
  request(req) {
    if (!when(req)) return;
    const u = new URL(req.url, 'http://proxy');
    const v = value?.(req);
    if (v === undefined) u.searchParams.delete(name);
    else u.searchParams.set(name, v);
    req.url = u.pathname + u.search;
  },
});

/** Edits the JSON body of the requests `when` picks. */
export const sends = (when: (req: ProxyRequest) => boolean, edit: (body: any) => void): Breaks => ({
  request(req) {
    const b = jsonOf(req.body);
    if (!when(req) || !b || typeof b !== 'object') return;
    edit(b);
    setJson(req, b);
  },
});

/** Both transformers of each, in order. */
export const both = (...all: Breaks[]): Breaks => ({
  request(req) {
    for (const b of all) b.request?.(req);
  },
  response(res, req) {
    for (const b of all) b.response?.(res, req);
  },
});

/** One proxy in front of the mock for cases run one after another: `plant` swaps what it breaks. */
export async function startSwappableProxy(mockOrigin: string) {
  let current: Breaks = {};
  const proxy = await startBrokenProxy(mockOrigin, {
    name: 'swappable',
    area: '',
    rule: '',
    request: (req) => current.request?.(req),
    response: (res, req) => current.response?.(res, req),
    drop: (req) => current.drop?.(req),
  });
  return {
    origin: proxy.origin,
    plant(breaks?: Breaks | (() => Breaks)) {
      current = (typeof breaks === 'function' ? breaks() : breaks) ?? {};
    },
    close: () => proxy.close(),
  };
}

/** A receiver that records what a planted sender would have delivered: each payload rewritten, or left out. */
export class PlantedSender extends Receiver {
  private n = 0;

  constructor(private readonly deliver: Deliver) {
    super();
  }

  protected override record(d: Delivery): void {
    const json = d.json && typeof d.json === 'object' ? this.deliver(structuredClone(d.json as Payload), this.n++, d.answered) : d.json;
    if (json) super.record(json === d.json ? d : { ...d, json, body: JSON.stringify(json) });
  }
}
