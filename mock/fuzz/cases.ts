// Bad requests generated from the spec (generated/openapi.json): for every operation, odd path ids, every query
// parameter out of type and bounds, and for every request body the documented example with one field at a time
// given a wrong type, null, a value past its bounds, its enum or its format, plus missing required fields, unknown
// fields, bad JSON and wrong content types; the upload with malformed multipart; every operation without a key and
// with a wrong one; undeclared methods. Nothing here restates the contract: names, types and bounds are read from it.
import { deref, type Json, type JsonObject } from '../../spec/runtime/json-pointer.ts';
import { operations, type OperationEntry } from '../../spec/runtime/operations.ts';

export interface FuzzCase {
  /** What was tried, for failure messages. */
  label: string;
  method: string;
  /** Relative to the API base, query included. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The operation the request targets (its declared responses validate the answer); absent for undeclared ones. */
  op?: OperationEntry;
}

/** Values for path parameters that reach a real row (from the seed), by parameter name. */
export type PathValues = Record<string, string>;

const ODD_IDS = [
  'abc',
  '-1',
  '0',
  '9'.repeat(400),
  '%00',
  '%2e%2e',
  '..%2f..%2f__mock',
  '%C0%AE%C0%AE',
  '%ZZ',
  '%C3%BC',
  '1%20OR%201%3D1',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '00000000-0000-0000-0000-000000000000',
  '%F0%9F%98%80',
];
const UNDECLARED_METHODS = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];

const schemaOf = (bundle: JsonObject, node: Json | undefined): JsonObject => (deref(bundle, node) ?? {}) as JsonObject;

function typeOf(schema: JsonObject): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  return t as string | undefined;
}

/** A value of the wrong JSON type for a schema. */
function wrongType(schema: JsonObject): Json {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return [[[]]];
  }
}

/** Values just past the schema's bounds, a wrong enum value, a wrong format: each a separate case. */
function outOfBounds(schema: JsonObject): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  if (typeof schema.maxLength === 'number') out.push(['maxLength+1', 'x'.repeat(schema.maxLength + 1)]);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push(['minLength-1', 'x'.repeat(schema.minLength - 1)]);
  if (typeof schema.minimum === 'number') out.push(['minimum-1', schema.minimum - 1]);
  if (typeof schema.maximum === 'number') out.push(['maximum+1', schema.maximum + 1]);
  if (Array.isArray(schema.enum) || schema.const !== undefined) out.push(['not in enum', 'NOT-A-VALUE']);
  if (typeof schema.format === 'string') out.push([`bad ${schema.format}`, '2026-02-30T25:61:00Zx']);
  if (typeof schema.pattern === 'string') out.push(['pattern', '\u0000\u0001!']);
  if (typeOf(schema) === 'integer') out.push(['fraction', 1.5], ['huge', 1e308]);
  if (typeOf(schema) === 'string') out.push(['long', 'y'.repeat(70_000)]);
  return out;
}

/** A query string value for the same ideas (wrong type, bounds, enum, format, encodings). */
function queryValues(schema: JsonObject): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['empty', ''],
    ['very long', 'q'.repeat(5000)],
    ['percent garbage', '%ZZ%'],
    ['NUL', '%00'],
  ];
  const t = typeOf(schema);
  if (t === 'integer' || t === 'number')
    out.push(
      ['not a number', 'abc'],
      ['negative', '-1'],
      ['zero', '0'],
      ['fraction', '1.5'],
      ['exponent', '1e3'],
      ['past 2^53', '99999999999999999999'],
      ['overflow', '9'.repeat(400)],
    );
  if (t === 'boolean') out.push(['not a boolean', 'maybe']);
  for (const [what, v] of outOfBounds(schema))
    if (typeof v === 'string' || typeof v === 'number') out.push([what, encodeURIComponent(String(v))]);
  return out;
}

function fillPath(op: OperationEntry, values: PathValues, override?: [string, string]): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    override && override[0] === name ? override[1] : (values[name] ?? '00000000-0000-4000-8000-000000000000'),
  );
}

/** The request body schema and its first documented example (a valid base to break one field at a time). */
function jsonBody(bundle: JsonObject, op: OperationEntry): { schema: JsonObject; example: JsonObject } | undefined {
  const content = (schemaOf(bundle, op.operation.requestBody).content ?? {}) as JsonObject;
  const media = content['application/json'] as JsonObject | undefined;
  if (!media) return undefined;
  const schema = schemaOf(bundle, media.schema);
  const examples = Object.values((media.examples ?? {}) as JsonObject).map((e) => (schemaOf(bundle, e) as JsonObject).value);
  const example = (media.example ?? examples[0] ?? {}) as JsonObject;
  return { schema, example: typeof example === 'object' && example && !Array.isArray(example) ? example : {} };
}

const JSON_TYPE = { 'content-type': 'application/json' };

function bodyCases(bundle: JsonObject, op: OperationEntry, base: Omit<FuzzCase, 'label'>): FuzzCase[] {
  const spec = jsonBody(bundle, op);
  if (!spec) return [];
  const cases: FuzzCase[] = [];
  const add = (label: string, body: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
    cases.push({ ...base, label, body, headers: { ...base.headers, ...headers } });
  const send = (label: string, value: unknown) => add(label, JSON.stringify(value));
  const props = (spec.schema.properties ?? {}) as JsonObject;
  for (const [name, raw] of Object.entries(props)) {
    const schema = schemaOf(bundle, raw);
    send(`${name}: wrong type`, { ...spec.example, [name]: wrongType(schema) });
    send(`${name}: null`, { ...spec.example, [name]: null });
    for (const [what, v] of outOfBounds(schema)) send(`${name}: ${what}`, { ...spec.example, [name]: v });
    if (typeOf(schema) === 'object') send(`${name}: unknown nested field`, { ...spec.example, [name]: { zz_unknown: 1 } });
  }
  for (const name of (spec.schema.required ?? []) as string[]) {
    const { [name]: _, ...rest } = spec.example;
    send(`missing required ${name}`, rest);
  }
  send('unknown field', { ...spec.example, zz_unknown_field: true });
  send('empty object', {});
  for (const [label, raw] of [
    ['top-level array', '[]'],
    ['top-level null', 'null'],
    ['top-level string', '"text"'],
    ['top-level number', '42'],
    ['truncated JSON', '{"name":'],
    ['trailing garbage', '{}garbage'],
    ['single quotes', "{'name':'x'}"],
    ['deep nesting', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['duplicate keys', '{"name":"a","name":"b"}'],
    ['__proto__ key', '{"__proto__":{"polluted":true},"name":"x"}'],
  ])
    add(`JSON: ${label}`, raw!);
  add('invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  add('UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(spec.example))]));
  add('empty body', '');
  add('over 1 MiB', JSON.stringify({ ...spec.example, zz: 'z'.repeat(1_100_000) }));
  for (const type of [
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'application/jsonx',
  ])
    add(`Content-Type ${type}`, JSON.stringify(spec.example), { 'content-type': type });
  add('no Content-Type', JSON.stringify(spec.example), {});
  add('Content-Encoding gzip (not gzip)', JSON.stringify(spec.example), { ...JSON_TYPE, 'content-encoding': 'gzip' });
  return cases;
}

/** Multipart bodies for an operation whose request body is multipart/form-data. */
function multipartCases(bundle: JsonObject, op: OperationEntry, base: Omit<FuzzCase, 'label'>): FuzzCase[] {
  const content = (schemaOf(bundle, op.operation.requestBody).content ?? {}) as JsonObject;
  const media = content['multipart/form-data'] as JsonObject | undefined;
  if (!media) return [];
  const schema = schemaOf(bundle, media.schema);
  const fileField =
    Object.entries((schema.properties ?? {}) as JsonObject).find(([, s]) => schemaOf(bundle, s).format === 'binary')?.[0] ?? 'file';
  const B = 'fuzzBOUNDARY';
  const part = (disposition: string, body: string, type = 'application/octet-stream') =>
    `--${B}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: ${type}\r\n\r\n${body}\r\n`;
  const pdf = '%PDF-1.4\n%%EOF\n';
  const file = (filename: string, body = pdf) => part(`name="${fileField}"; filename="${filename}"`, body, 'application/pdf');
  const end = `--${B}--\r\n`;
  const type = { 'content-type': `multipart/form-data; boundary=${B}` };
  const cases: Array<[string, string, Record<string, string>?]> = [
    ['no boundary', file('a.pdf') + end, { 'content-type': 'multipart/form-data' }],
    ['truncated', (file('a.pdf') + end).slice(0, 60)],
    ['30 parts', Array.from({ length: 30 }, (_, i) => part(`name="f${i}"`, 'x')).join('') + end],
    ['CR in filename', file('a\rb.pdf') + end],
    ['two file parts', file('a.pdf') + file('b.pdf') + end],
    ['empty file', file('a.pdf', '') + end],
    ['not a supported file', file('a.txt', 'plain text') + end],
    ['file as a text field', part(`name="${fileField}"`, 'not a file', 'text/plain') + end],
    ['no file', part('name="external_id"', 'x') + end],
    ['unknown field', file('a.pdf') + part('name="zz_unknown"', 'x') + end],
    ['external_id too long', file('a.pdf') + part('name="external_id"', 'e'.repeat(300)) + end],
    ['empty body', ''],
    ['no closing boundary', file('a.pdf')],
    ['garbage', 'garbage\r\n\r\n--'],
    ['JSON instead', '{"file":"x"}', JSON_TYPE],
    ['RFC 5987 name', part(`name="${fileField}"; filename*=UTF-8''%E6%96%87%F0%9F%98%80%0D%0A.pdf`, pdf, 'application/pdf') + end],
  ];
  return cases.map(([label, body, headers]) => ({
    ...base,
    label: `multipart: ${label}`,
    body,
    headers: { ...base.headers, ...(headers ?? type) },
  }));
}

/** Every case for every operation of the bundle; `key` is an active key with every scope. */
export function fuzzCases(bundle: JsonObject, key: string, values: PathValues): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const ops = operations(bundle);
  const withKey = { 'x-api-key': key };
  for (const op of ops) {
    const method = op.method.toUpperCase();
    const path = fillPath(op, values);
    const base = { method, path, headers: withKey, op };
    const at = `${method} ${op.path}`;
    // Deleting the seeded rows would only turn later cases into 404s: odd ids and auth only for DELETE.
    const destructive = method === 'DELETE';
    for (const [label, headers] of [
      ['no key', {}],
      ['wrong key', { 'x-api-key': 'crk_fuzz_wrong_0000000000000000' }],
      ['empty key', { 'x-api-key': '' }],
    ] as const)
      cases.push({ ...base, label: `${at}: ${label}`, headers });
    for (const p of op.parameters.filter((x) => x.in === 'path'))
      for (const odd of ODD_IDS)
        cases.push({ ...base, label: `${at}: ${String(p.name)}=${odd.slice(0, 20)}`, path: fillPath(op, values, [String(p.name), odd]) });
    if (destructive) continue;
    for (const p of op.parameters.filter((x) => x.in === 'query')) {
      const name = String(p.name);
      for (const [what, v] of queryValues(schemaOf(bundle, p.schema)))
        cases.push({ ...base, label: `${at}: ?${name} ${what}`, path: `${path}?${name}=${v}` });
      cases.push({ ...base, label: `${at}: ?${name} twice`, path: `${path}?${name}=1&${name}=2` });
    }
    cases.push({ ...base, label: `${at}: unknown query parameter`, path: `${path}?zz_unknown=%FF` });
    for (const c of [...bodyCases(bundle, op, base), ...multipartCases(bundle, op, base)]) cases.push({ ...c, label: `${at}: ${c.label}` });
  }
  // Undeclared methods on every path template (no operation: 405 with Allow).
  const byPath = new Map<string, Set<string>>();
  for (const op of ops) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method.toUpperCase()));
  for (const [template, declared] of byPath) {
    const op = ops.find((o) => o.path === template)!;
    for (const method of UNDECLARED_METHODS.filter((m) => !declared.has(m)))
      cases.push({
        label: `${method} ${template}: undeclared method`,
        method,
        path: fillPath(op, values),
        headers: { ...withKey, 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
  }
  for (const path of ['/', '/zz-nowhere', '/patients/1/zz', '/%2e%2e/%2e%2e/etc/passwd', `/${'a/'.repeat(500)}`])
    cases.push({ label: `GET ${path.slice(0, 30)}: unknown path`, method: 'GET', path, headers: withKey });
  return cases;
}
