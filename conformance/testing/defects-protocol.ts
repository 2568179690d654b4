// Single-defect rows for the rules checks claim through `covers` on keys and scopes, pagination, limits, rate limiting
// and webhook delivery (the planted sender rewrites or leaves out the mock's deliveries on their way to the receiver).
// Their own rules are proven by the check files' broken variants. Each row breaks its rule alone.
import type { ProxyRequest } from './broken-proxy.ts';
import type { Breaks } from './check-file.ts';
import { answers, type Defect, type DefectKeys, keysWith, pathOf, type Payload, query, queryOf, sends, to } from './single-defect.ts';

const LISTS = /^\/(patients|appointments|providers|notes)$/;
const REGEN = /^\/sessions\/[^/]+\/notes\/regenerate$/;
const key = (req: ProxyRequest) => req.headers['x-api-key'] ?? '';

/**
 * Requests to `method` `path` with a key lacking `scope` go on with the main key (the scope is not enforced). The keys
 * are read as requests pass: the test fills them in once the mock has listed them.
 */
const scopeIgnored = (keys: DefectKeys, scope: string, method: string, path: RegExp): Breaks => ({
  request(req) {
    const holders = keys.scoped.filter((k) => !k.scopes.includes(scope)).map((k) => k.key);
    if (holders.includes(key(req)) && req.method === method && path.test(pathOf(req))) req.headers['x-api-key'] = keys.main;
  },
});

/** Reads with a key holding `scope` (not `*`) of `path` are refused 403. */
const readRefused = (keys: DefectKeys, scope: string, path: RegExp): Breaks =>
  answers(
    (req) => keysWith(keys, scope).includes(key(req)) && to('GET', path)(req),
    () => ({ error: 'Insufficient scope' }),
    403,
  );

/** A retry (the same payload again) left out after an attempt `refused` picks: the sender did not retry it. */
export const notRepeated = (refused: (answered: number) => boolean) => {
  const seen = new Set<string>();
  return (p: Payload, _n: number, answered: number) => {
    const body = JSON.stringify(p);
    if (seen.has(body)) return undefined;
    if (refused(answered)) seen.add(body);
    return p;
  };
};

const clip = (n: number) => (v: unknown) => (typeof v === 'string' && v.length > n ? v.slice(0, n) : v);

/** AUTH: a key or scope not enforced, a 401 or 403 in other words, reads a granted scope allows refused. */
function keysAndScopes(keys: DefectKeys): Defect[] {
  return [
    {
      rule: 'AUTH-003',
      defect: 'GET /providers answers without a key',
      breaks: {
        request: (req) => void (!req.headers['x-api-key'] && pathOf(req) === '/providers' && (req.headers['x-api-key'] = keys.main)),
      },
    },
    {
      rule: 'ERR-002',
      defect: '401 with {message} instead of {error}',
      breaks: answers(
        (_, res) => res.status === 401,
        () => ({ message: 'Unauthorized' }),
      ),
    },
    {
      rule: 'ERR-002',
      defect: 'an expired key answered 403',
      breaks: { response: (res, req) => void (key(req) === keys.expired && res.status === 401 && (res.status = 403)) },
    },
    {
      rule: 'AUTH-022',
      defect: 'a key without patients:write may POST /patients',
      breaks: scopeIgnored(keys, 'patients:write', 'POST', /^\/patients$/),
    },
    {
      rule: 'AUTH-024',
      defect: 'regenerate without notes:write accepted',
      breaks: scopeIgnored(keys, 'notes:write', 'POST', REGEN),
    },
    {
      rule: 'ERR-003',
      defect: '403 with an empty body',
      breaks: answers(
        (_, res) => res.status === 403,
        () => ({}),
      ),
    },
    { rule: 'AUTH-013', defect: 'patients:read refused on GET /patients', breaks: readRefused(keys, 'patients:read', /^\/patients$/) },
    {
      rule: 'AUTH-015',
      defect: 'appointments:read refused on GET /appointments',
      breaks: readRefused(keys, 'appointments:read', /^\/appointments$/),
    },
    { rule: 'AUTH-019', defect: 'notes:read refused on GET /notes/export', breaks: readRefused(keys, 'notes:read', /^\/notes\/export$/) },
    { rule: 'AUTH-019', defect: 'notes:read refused on GET /notes', breaks: readRefused(keys, 'notes:read', /^\/notes$/) },
    { rule: 'AUTH-020', defect: 'providers:read refused on GET /providers', breaks: readRefused(keys, 'providers:read', /^\/providers$/) },
  ];
}

/** PAG: the lists' page and limit parameters ignored or defaulted otherwise. */
function pagination(): Defect[] {
  return [
    { rule: 'PAG-006', defect: 'page ignored on the lists', breaks: query(to('GET', LISTS), 'page') },
    { rule: 'PAG-006', defect: 'limit ignored on the lists', breaks: query(to('GET', LISTS), 'limit') },
    {
      rule: 'PAG-001',
      defect: 'page defaults to 2',
      breaks: query(
        (req) => to('GET', LISTS)(req) && !queryOf(req).has('page'),
        'page',
        () => '2',
      ),
    },
    {
      rule: 'PAG-002',
      defect: 'limit defaults to 10',
      breaks: query(
        (req) => to('GET', LISTS)(req) && !queryOf(req).has('limit'),
        'limit',
        () => '10',
      ),
    },
  ];
}

/** RATE and LIM: the 429 answered otherwise, limits on written fields not enforced. */
function rateAndFieldLimits(): Defect[] {
  return [
    {
      rule: 'RATE-002',
      defect: 'over the limit answered 503',
      breaks: { response: (res) => void (res.status === 429 && (res.status = 503)) },
    },
    {
      rule: 'RATE-003',
      defect: 'the 429 in other words',
      breaks: answers(
        (_, res) => res.status === 429,
        () => ({ error: 'Too many requests' }),
      ),
    },
    {
      rule: 'RATE-004',
      defect: '429 without Retry-After',
      breaks: { response: (res) => void (res.status === 429 && delete res.headers['retry-after']) },
    },
    {
      rule: 'LIM-002',
      defect: 'an external_id over 255 characters accepted',
      breaks: sends(
        (req) => req.method !== 'GET',
        (b) => void (b.external_id = clip(255)(b.external_id)),
      ),
    },
    {
      rule: 'LIM-002',
      defect: 'an empty external_id accepted',
      breaks: sends(
        (req) => req.method === 'POST',
        (b) => void (b.external_id === '' && (b.external_id = `crc-empty-${Date.now()}`)),
      ),
    },
    {
      rule: 'LIM-003',
      defect: 'an mrn over 64 characters accepted',
      breaks: sends(
        (req) => req.method !== 'GET',
        (b) => void (b.mrn = clip(64)(b.mrn)),
      ),
    },
    {
      rule: 'LIM-004',
      defect: 'a duration_minutes of 0 accepted',
      breaks: sends(
        (req) => req.method !== 'GET',
        (b) => void (typeof b.duration_minutes === 'number' && b.duration_minutes < 1 && (b.duration_minutes = 1)),
      ),
    },
  ];
}

/**
 * EVT: the planted sender (the mock's deliveries rewritten or left out on their way to the receiver), and the
 * note_url's note not found.
 */
function deliveries(): Defect[] {
  const failedOnce = new Set<string>();
  return [
    {
      rule: 'EVT-008',
      defect: 'extraction reaching completed sends status failed',
      deliver: (p) => (p.status === 'completed' ? { ...p, status: 'failed' } : p),
    },
    {
      rule: 'EVT-009',
      defect: 'extraction reaching failed sends status completed',
      deliver: (p) => (p.status === 'failed' ? { ...p, status: 'completed', error: null } : p),
    },
    {
      rule: 'EVT-010',
      defect: 'a failed document that later completes sends no second event',
      deliver: (p) =>
        p.status === 'completed' && failedOnce.has(String(p.document_id))
          ? undefined
          : (p.status === 'failed' && failedOnce.add(String(p.document_id)), p),
    },
    {
      rule: 'EVT-003',
      defect: "the note_url's note not found",
      breaks: answers(
        (req, res) => to('GET', /^\/notes\/[^/]+$/)(req) && res.status === 200,
        () => ({ error: 'Note not found' }),
        404,
      ),
    },
    {
      rule: 'EVT-016',
      defect: 'note_url a relative path',
      deliver: (p) => (typeof p.note_url === 'string' ? { ...p, note_url: new URL(p.note_url).pathname } : p),
    },
  ];
}

/** LIM-008: the rate-limit headers left out of error answers and of the 429, each found by its own driver. */
function rateLimitHeaders(): Defect[] {
  return [
    {
      rule: 'LIM-008',
      defect: 'error answers without the rate-limit headers',
      driver: 'external_id_lookup_miss',
      breaks: { response: (res) => void (res.status >= 400 && delete res.headers['x-ratelimit-remaining']) },
    },
    {
      rule: 'LIM-008',
      defect: '429 without Retry-After (rate_limit_headers)',
      driver: 'rate_limited_429',
      breaks: { response: (res) => void (res.status === 429 && delete res.headers['retry-after']) },
    },
  ];
}

export function protocolDefects(keys: DefectKeys): Defect[] {
  return [...keysAndScopes(keys), ...pagination(), ...rateAndFieldLimits(), ...deliveries(), ...rateLimitHeaders()];
}
