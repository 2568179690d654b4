// Webhook registrations: what the source's web application form holds (name, URL, event, format, static headers),
// kept per organization. The source shows no registration endpoint; the mock's control API stands in for the form.
import type { Resolver } from './destination.ts';
import { onFirstUse } from '../../platform/on-first-use.ts';
import { isWebhookFormat, WEBHOOK_FORMAT_NAMES, type WebhookFormat } from '../../../spec/runtime/webhook-encode.ts';

/** The address checks (ipaddr.js) are loaded with the first webhook, not at start. */
const addressChecks = onFirstUse(() => import('./destination.ts'));

export interface Webhook {
  id: string;
  name: string;
  url: string;
  event: string;
  format: WebhookFormat;
  headers: Record<string, string>;
  organization_id: string;
  created_at: string;
}

export type Registered = { ok: true; webhook: Webhook } | { ok: false; error: string; details: Record<string, string> };

const FIELDS = ['name', 'url', 'event', 'format', 'headers', 'organization_id'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Set by the sender from the body or the connection; a static header may not replace them.
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE = 4096;
/**
 * What every sender can put in a header value: tab, visible ASCII, space and Latin-1's upper half. Node's http refuses
 * any other character (ERR_INVALID_CHAR, on every attempt) and a fetch takes only bytes; refused at registration.
 */
const HEADER_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Why a static header value cannot be sent, or undefined. */
function headerValueProblem(v: unknown): string | undefined {
  const what = `must be a string of at most ${MAX_HEADER_VALUE} characters: visible ASCII, space, tab or U+0080 to U+00FF`;
  if (typeof v !== 'string' || v.length > MAX_HEADER_VALUE) return what;
  const bad = HEADER_VALUE_CHAR.exec(v);
  if (!bad) return undefined;
  const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `${what}; it has U+${code} at index ${bad.index}`;
}

export interface RegistryOptions {
  /** Event kinds from the spec's `webhooks`. */
  kinds: readonly string[];
  /** Known organizations, first is the default; undefined when unknown (organization_id is then required). */
  organizations: () => readonly string[] | undefined;
  allowPrivate: boolean;
  resolve: Resolver;
  now: () => Date;
}

export function createRegistry(opts: RegistryOptions) {
  const hooks = new Map<string, Webhook>();

  async function register(input: unknown): Promise<Registered> {
    const details: Record<string, string> = {};
    if (!input || typeof input !== 'object' || Array.isArray(input))
      return { ok: false, error: 'The body must be a JSON object', details: { body: 'must be an object' } };
    const body = input as Record<string, unknown>;
    for (const k of Object.keys(body)) if (!FIELDS.includes(k)) details[k] = `unknown field; allowed: ${FIELDS.join(', ')}`;

    const name = body.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
      details.name = 'must be a non-empty string of at most 255 characters';

    const event = body.event;
    if (typeof event !== 'string' || !opts.kinds.includes(event)) details.event = `must be one of ${opts.kinds.join(', ')}`;

    const format = body.format ?? 'JSON';
    if (!isWebhookFormat(format)) details.format = `must be one of ${WEBHOOK_FORMAT_NAMES.map((f) => JSON.stringify(f)).join(', ')}`;

    const headers: Record<string, string> = {};
    if (body.headers !== undefined) {
      const h = body.headers;
      if (!h || typeof h !== 'object' || Array.isArray(h)) details.headers = 'must be an object of header name to string value';
      else {
        const entries = Object.entries(h as Record<string, unknown>);
        if (entries.length > MAX_HEADERS) details.headers = `at most ${MAX_HEADERS} headers`;
        const seen = new Set<string>();
        for (const [k, v] of entries) {
          const lower = k.toLowerCase();
          if (!TOKEN.test(k)) details[`headers.${k}`] = 'is not a valid header name';
          else if (RESERVED_HEADERS.has(lower)) details[`headers.${k}`] = 'is set by the mock for each delivery and cannot be configured';
          else if (seen.has(lower)) details[`headers.${k}`] = 'is given twice (header names are case-insensitive)';
          else {
            const problem = headerValueProblem(v);
            if (problem) details[`headers.${k}`] = problem;
            else headers[k] = v as string;
          }
          seen.add(lower);
        }
      }
    }

    const orgs = opts.organizations();
    let organization_id = body.organization_id;
    if (organization_id === undefined) {
      organization_id = orgs?.[0];
      if (organization_id === undefined) details.organization_id = 'is required (the mock knows no organizations to default to)';
    } else if (typeof organization_id !== 'string' || organization_id === '') details.organization_id = 'must be a non-empty string';
    else if (orgs && !orgs.includes(organization_id)) details.organization_id = `is not an organization of the seed (${orgs.join(', ')})`;

    // Checked last: it may resolve a name, and other errors are reported with it.
    const dest = await (await addressChecks()).checkDestination(body.url, { allowPrivate: opts.allowPrivate, resolve: opts.resolve });
    if (!dest.ok) details.url = dest.reason;

    const problems = Object.entries(details);
    if (problems.length) {
      // Destination reasons are whole sentences ("url must use https..."); field reasons follow the field's name.
      const [field, reason] = problems[0]!;
      const one = field === 'url' ? reason : `${field} ${reason}`;
      const error = problems.length === 1 ? `Invalid webhook: ${one}` : `Invalid webhook: ${problems.length} problems (see details)`;
      return { ok: false, error, details };
    }
    const webhook: Webhook = {
      id: crypto.randomUUID(),
      name: (name as string).trim(),
      url: (dest as { url: URL }).url.href,
      event: event as string,
      format: format as WebhookFormat,
      headers,
      organization_id: organization_id as string,
      created_at: opts.now().toISOString(),
    };
    hooks.set(webhook.id, webhook);
    return { ok: true, webhook };
  }

  return {
    register,
    get: (id: string) => hooks.get(id),
    has: (id: string) => hooks.has(id),
    list: () => [...hooks.values()],
    remove: (id: string) => hooks.delete(id),
    /** The organization's webhooks for one event kind: only these receive its events. */
    subscribers: (org: string, event: string) => [...hooks.values()].filter((w) => w.organization_id === org && w.event === event),
  };
}

export type Registry = ReturnType<typeof createRegistry>;
