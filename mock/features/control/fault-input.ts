// The body of POST /__mock/faults, checked: `{ kind, count?, scope? }` for the counted kinds; `{ kind: "http", method,
// path, status }`; a network kind (`latency`, `timeout`, `drop`, `reset`, `malformed`) aimed like `http` (method and
// path optional: every method, every path), `latency` with `ms` (300, or [100, 800]) and `timeout` with an optional
// `ms` (how long the connection is held; at most and by default 120 s).
import type { FaultKind } from '../../platform/deps.ts';
import { FAULT_KINDS, type Fault, isAimed, MAX_FAULT_PATH } from '../../platform/faults.ts';
import { checkLatency, MAX_FAULT_MS } from '../../platform/network-faults.ts';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', '*'];

/** The fields each kind takes besides kind, count and scope. */
const FIELDS: Partial<Record<FaultKind, readonly string[]>> = {
  http: ['method', 'path', 'status'],
  latency: ['method', 'path', 'ms'],
  timeout: ['method', 'path', 'ms'],
  drop: ['method', 'path'],
  reset: ['method', 'path'],
  malformed: ['method', 'path'],
};

export type FaultInput = { ok: true; fault: Omit<Fault, 'id'> } | { ok: false; details: Record<string, string> };

export function readFaultInput(body: Record<string, unknown>): FaultInput {
  const details: Record<string, string> = {};
  const kind = body.kind as FaultKind;
  if (!FAULT_KINDS.includes(kind)) details.kind = `must be one of ${FAULT_KINDS.join(', ')}`;
  // Omitted: once. null: until cleared (so `?? 1` would be wrong).
  const count = body.count === undefined ? 1 : body.count;
  if (count !== null && !(Number.isInteger(count) && (count as number) >= 1)) details.count = 'must be an integer >= 1 or null';
  const allowed = ['kind', 'count', 'scope', ...(FIELDS[kind] ?? [])];
  for (const k of Object.keys(body)) if (!allowed.includes(k)) details[k] = 'unknown field';
  const scope = body.scope;
  if (scope !== undefined && !(typeof scope === 'string' && /^[\x21-\x7e]{1,200}$/.test(scope)))
    details.scope = 'must be 1 to 200 visible ASCII characters (the value of the X-Mock-Fault-Scope request header)';
  const aimed = FAULT_KINDS.includes(kind) && isAimed(kind);
  // `http` names its target; a network fault without one reaches every API request.
  const given = (k: string) => body[k] !== undefined || kind === 'http';
  const method = typeof body.method === 'string' ? body.method.toUpperCase() : given('method') ? undefined : '*';
  const path = typeof body.path === 'string' ? body.path : given('path') ? undefined : '/**';
  if (aimed) {
    if (!method || !HTTP_METHODS.includes(method)) details.method = `must be one of ${HTTP_METHODS.join(', ')}`;
    if (typeof path !== 'string' || !path.startsWith('/') || path.length > MAX_FAULT_PATH)
      details.path = `must be a path starting with / (at most ${MAX_FAULT_PATH} characters)`;
  }
  if (kind === 'http' && !(Number.isInteger(body.status) && (body.status as number) >= 400 && (body.status as number) <= 599))
    details.status = 'must be an integer from 400 to 599';
  let ms: Fault['ms'];
  if (kind === 'latency') {
    const checked = checkLatency(body.ms);
    if (typeof checked === 'string') details.ms = checked;
    else ms = checked;
  } else if (kind === 'timeout' && body.ms !== undefined) {
    if (Number.isInteger(body.ms) && (body.ms as number) >= 1 && (body.ms as number) <= MAX_FAULT_MS) ms = body.ms as number;
    else details.ms = `must be an integer from 1 to ${MAX_FAULT_MS} (how long the connection is held; default ${MAX_FAULT_MS})`;
  }
  if (Object.keys(details).length) return { ok: false, details };
  return {
    ok: true,
    fault: {
      kind,
      count: count as number | null,
      ...(aimed ? { method, path } : {}),
      ...(kind === 'http' ? { status: body.status as number } : {}),
      ...(ms !== undefined ? { ms } : {}),
      ...(scope !== undefined ? { scope: scope as string } : {}),
    },
  };
}
