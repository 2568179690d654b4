// Pins the structural promises of the contract (issue 2) on the bundled spec that everything else derives from.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bundleRef, createAjv, loadBundle } from './runtime/bundle.ts';
import { deref, escapeToken, type Json, type JsonObject } from './runtime/json-pointer.ts';
import { operations } from './runtime/operations.ts';

const doc = loadBundle();
const ops = operations(doc);
const ajv = createAjv(doc);
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Every node of the bundle with its JSON pointer. */
function* walk(node: Json, pointer = ''): Generator<[string, Json]> {
  yield [pointer, node];
  if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) yield* walk(v as Json, `${pointer}/${escapeToken(k)}`);
}

function responsesOf(op: JsonObject): Array<[string, JsonObject]> {
  return Object.entries(op.responses as JsonObject).map(([status, r]) => [status, deref(doc, r) as JsonObject]);
}

/** Schemas reachable from a node, following refs once each. */
function* schemasUnder(node: Json | undefined, seen = new Set<Json>()): Generator<JsonObject> {
  const resolved = deref(doc, node);
  if (!resolved || typeof resolved !== 'object' || Array.isArray(resolved) || seen.has(resolved)) return;
  seen.add(resolved);
  yield resolved;
  for (const key of ['properties', 'patternProperties', '$defs'])
    for (const child of Object.values((resolved[key] ?? {}) as JsonObject)) yield* schemasUnder(child, seen);
  for (const key of ['items', 'additionalProperties', 'not', 'contains'])
    if (resolved[key] && typeof resolved[key] === 'object') yield* schemasUnder(resolved[key], seen);
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const child of (resolved[key] ?? []) as Json[]) yield* schemasUnder(child, seen);
}

describe('contract shape', () => {
  it('is OpenAPI 3.1 at version 1.0.0 with a server ending in /ext-api/v1 (VER)', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as JsonObject).version).toBe('1.0.0');
    for (const server of doc.servers as JsonObject[]) expect(server.url).toMatch(/\/ext-api\/v1$/);
  });

  it('offers the service over https only, as a marked choice; the mock stays on its loopback http address', () => {
    // Every scheme a server URL can take: a variable in the scheme expands to each value it allows.
    const schemes = (server: JsonObject) => {
      const variables = (server.variables ?? {}) as Record<string, { enum?: string[]; default?: string }>;
      const scheme = String(server.url).split('://')[0]!;
      const name = /^\{(.+)\}$/.exec(scheme)?.[1];
      return name ? (variables[name]?.enum ?? [variables[name]?.default]) : [scheme];
    };
    const [service, mock, ...rest] = doc.servers as JsonObject[];
    expect(schemes(service!)).toEqual(['https']);
    expect(service!['x-assumption']).toMatch(/https/);
    expect(mock!.url).toBe('http://127.0.0.1:4010/ext-api/v1');
    expect(rest).toEqual([]);
  });

  it('describes the 21 operations of the source with unique operationIds', () => {
    expect(ops).toHaveLength(21);
    const ids = ops.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(21);
  });

  it('describes the four webhook events', () => {
    expect(Object.keys(doc.webhooks as JsonObject).sort()).toEqual([
      'DOCUMENT_STATUS_CHANGED',
      'NOTE_CREATED',
      'NOTE_REGENERATED',
      'NOTE_UPDATED',
    ]);
  });
});

describe.each(ops.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s', (_name, entry) => {
  const { operation, path, parameters } = entry;
  const statuses = Object.keys(operation.responses as JsonObject);

  it('declares a required scope in x-required-scopes', () => {
    const scopes = operation['x-required-scopes'] as string[];
    expect(scopes).toHaveLength(1);
    expect(scopes[0]).toMatch(/^[a-z]+:(read|write)$/);
    expect(scopes[0]!.endsWith(entry.method === 'get' ? ':read' : ':write')).toBe(true);
  });

  it('answers 400, 401, 403 and 429, and 404 when its path names a resource', () => {
    for (const s of ['400', '401', '403', '429']) expect(statuses).toContain(s);
    if (path.includes('{')) expect(statuses).toContain('404');
  });

  it('declares the rate-limit headers on every response, and Retry-After on 429', () => {
    for (const [status, response] of responsesOf(operation)) {
      const headers = (response.headers ?? {}) as JsonObject;
      for (const h of RATE_HEADERS) expect(headers, `${status} ${h}`).toHaveProperty(h);
      if (status === '429') expect(headers).toHaveProperty('Retry-After');
    }
  });

  it('closes every request body object with additionalProperties: false', () => {
    const body = deref(doc, operation.requestBody) as JsonObject | undefined;
    for (const media of Object.values((body?.content ?? {}) as JsonObject))
      for (const schema of schemasUnder((media as JsonObject).schema)) {
        if (schema.type === 'object' || schema.properties) expect(schema.additionalProperties).toBe(false);
      }
  });

  it('types every patient id as a digit string', () => {
    for (const p of parameters)
      if (/^patient_?id$/i.test(p.name as string)) {
        const schema = deref(doc, p.schema) as JsonObject;
        expect(schema.type).toBe('string');
        expect(schema.pattern).toBe('^\\d+$');
      }
  });
});

describe('schemas', () => {
  it('use no keyword Prism skips or does not support', () => {
    const banned = ['discriminator', 'unevaluatedProperties', 'unevaluatedItems', 'prefixItems', '$dynamicRef', '$dynamicAnchor'];
    const found = [...walk(doc)].filter(([pointer]) => banned.some((k) => pointer.endsWith(`/${k}`)));
    expect(found.map(([p]) => p)).toEqual([]);
  });

  it('never type a patient id as a number', () => {
    const offenders = [...walk(doc)].filter(([pointer, node]) => {
      if (!/\/(patient_id|patientId)$/.test(pointer) && !/\/(Patient|PatientListItem|NotePatientContext)\/properties\/id$/.test(pointer))
        return false;
      const schema = deref(doc, node) as JsonObject;
      return pointer.includes('/properties/') && schema.type !== 'string';
    });
    expect(offenders.map(([p]) => p)).toEqual([]);
  });

  it('mark every assumption with a reason', () => {
    const marks = [...walk(doc)].filter(([p]) => p.endsWith('/x-assumption'));
    expect(marks.length).toBeGreaterThan(20);
    for (const [p, reason] of marks) expect(typeof reason === 'string' && reason.length > 10, p).toBe(true);
  });

  it('quote the documented 429 and 409 messages exactly', () => {
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    expect(((schemas.RateLimitError as JsonObject).properties as JsonObject).error).toEqual({
      const: 'Rate limit exceeded. Please retry after the window resets.',
    });
    expect(((schemas.ExternalIdConflict as JsonObject).properties as JsonObject).error).toEqual({
      const: 'external_id already in use',
    });
  });
});

describe('examples', () => {
  const cases: Array<[string, string, Json]> = [];
  for (const [pointer, node] of walk(doc)) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
    // Schema-level `examples` (an array of instances) on a schema object.
    if (Array.isArray(node.examples) && /\/(schemas\/[^/]+|properties\/[^/]+|schema|items)$/.test(pointer))
      for (const [i, ex] of node.examples.entries()) cases.push([`${pointer}/examples/${i}`, pointer, ex]);
    // Media-type `example` / `examples.*.value` next to a `schema`.
    if (node.schema && 'example' in node) cases.push([`${pointer}/example`, `${pointer}/schema`, node.example as Json]);
    if (node.schema && node.examples && !Array.isArray(node.examples))
      for (const [name, ex] of Object.entries(node.examples as JsonObject))
        cases.push([`${pointer}/examples/${name}`, `${pointer}/schema`, (ex as JsonObject).value as Json]);
  }

  it('exist for the main models', () => {
    expect(cases.length).toBeGreaterThan(15);
  });

  it.each(cases)('%s validates against its schema', (_where, schemaPointer, example) => {
    const validate = ajv.getSchema(bundleRef(`#${schemaPointer}`));
    expect(validate, `no schema at ${schemaPointer}`).toBeDefined();
    const ok = validate!(example);
    expect(validate!.errors ?? [], JSON.stringify(validate!.errors)).toEqual([]);
    expect(ok).toBe(true);
  });

  it('use a 19-digit patient id and Luhn-valid NPIs', () => {
    const text = JSON.stringify(doc);
    expect(text).toMatch(/"\d{19}"/);
    for (const npi of [...walk(doc)]
      .filter(([p]) => /\/npi$/.test(p))
      .map(([, v]) => v)
      .filter((v): v is string => typeof v === 'string'))
      expect(npiIsValid(npi), npi).toBe(true);
  });
});

/** NPI check digit: Luhn over the 9-digit base prefixed with 80840. */
function npiIsValid(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`.split('').map(Number);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i]!;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

describe('lint', () => {
  it('reports zero problems with the repository config', { timeout: 60_000 }, async () => {
    const run = promisify(execFile);
    const { stdout, stderr } = await run('npx', ['redocly', 'lint', 'spec/openapi.yaml', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: new URL('..', import.meta.url).pathname,
      maxBuffer: 16 * 1024 * 1024,
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number } };
    expect(report.totals, stderr).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
  });
});
