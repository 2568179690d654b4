// `npm run generate`: everything that derives from spec/openapi.yaml, in one command.
//   1. lint the spec (@redocly/cli, redocly.yaml; zero problems or stop)
//   2. bundle it into generated/openapi.json
//   3. openapi-typescript -> generated/types.ts (paths, components, operations, webhooks + named model aliases)
//   4. generated/spec-values.ts: the few spec values read at run time (upload limits, webhook schemas, the kit's
//      upload and extract wordings), so a browser bundle need not carry the whole document.
//   5. generated/readings.ts: the readings of spec/readings.yaml, each with its places' words and rules, for the
//      engine that plays them (a page included: no YAML parser, no file to read).
// `--out <dir>` writes elsewhere (the staleness test regenerates to a temp dir and diffs); `--no-lint` skips step 1.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadReadings } from '../spec/runtime/readings.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEC = join(ROOT, 'spec/openapi.yaml');
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');
export const GENERATED_FILES = ['openapi.json', 'types.ts', 'spec-values.ts', 'readings.ts'] as const;

const HEADER = 'generated, do not edit: made by `npm run generate` (scripts/generate.ts) from spec/openapi.yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function run(args: string[]): void {
  const r = spawnSync(REDOCLY, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`redocly ${args[0]} failed (exit ${r.status ?? r.signal})`);
  }
}

function get(doc: Json, pointer: string): Json | undefined {
  let node: Json | undefined = doc;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node;
}

function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  for (let i = 0; i < 32 && node && typeof node === 'object' && !Array.isArray(node) && typeof node.$ref === 'string'; i++)
    node = get(doc, node.$ref);
  return node;
}

function need<T extends Json>(value: Json | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`spec lacks ${what}`);
  return value as T;
}

/** Model aliases: one per component schema, plus the webhook event union. Names come from the spec, not a list. */
function aliases(doc: JsonObject): string {
  const reserved = new Set([
    'paths',
    'webhooks',
    'components',
    'operations',
    '$defs',
    'WebhookEvent',
    'WebhookEventKind',
    'WebhookEventOf',
    'WebhookPayload',
  ]);
  const lines = ['', '// Named aliases for the component schemas (one per schema of the spec).'];
  for (const name of Object.keys((get(doc, '#/components/schemas') ?? {}) as JsonObject)) {
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || reserved.has(name)) throw new Error(`schema name ${name} cannot be a type alias`);
    lines.push(`export type ${name} = components["schemas"]["${name}"];`);
  }
  lines.push(
    '',
    "/** The event kinds: the keys of the spec's `webhooks`. */",
    'export type WebhookEventKind = keyof webhooks;',
    '/** The JSON payload schema of one webhook kind (note kinds share one schema). */',
    'export type WebhookPayload<K extends WebhookEventKind> = NonNullable<webhooks[K]["post"]["requestBody"]>["content"]["application/json"];',
    '/** The payload of one webhook kind, with `event` narrowed to that kind. */',
    'export type WebhookEventOf<K extends WebhookEventKind> = WebhookPayload<K> & { event: K };',
    '/** Any webhook payload: the union of the payload schemas, discriminated by `event`. */',
    'export type WebhookEvent = { [K in WebhookEventKind]: WebhookPayload<K> }[WebhookEventKind];',
    '',
  );
  return lines.join('\n');
}

/**
 * openapi-typescript turns `properties` + `anyOf: [{ required: [a] }, { required: [b] }]` ("at least one of") into
 * `Props | unknown`, i.e. `unknown`. The same constraint written as one full object per variant gives the union TS
 * needs (`{ a: T; b?: U } | { a?: T; b: U }`). The rewrite is equivalent in JSON Schema and is used for types only.
 */
function forTypes(node: Json): Json {
  if (Array.isArray(node)) return node.map(forTypes);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, forTypes(v)])) as JsonObject;
  const variants = out.anyOf;
  const onlyRequired = (m: Json) => !!m && typeof m === 'object' && !Array.isArray(m) && Object.keys(m).join() === 'required';
  if (out.properties && Array.isArray(variants) && variants.length > 0 && variants.every(onlyRequired)) {
    const { anyOf: _, description, ...base } = out;
    const required = (base.required ?? []) as string[];
    const anyOf = variants.map((m) => ({ ...base, required: [...required, ...((m as JsonObject).required as string[])] }));
    return description === undefined ? { anyOf } : { description, anyOf };
  }
  return out;
}

/** Drops `x-*` annotations: ajv in strict mode would reject them as unknown keywords. */
function stripExtensions(node: Json): Json {
  if (Array.isArray(node)) return node.map(stripExtensions);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !k.startsWith('x-'))
      .map(([k, v]) => [k, stripExtensions(v)]),
  );
}

/** Every `#/components/schemas/*` reachable from a node, so the webhook schemas travel with what they reference. */
function collectRefs(doc: JsonObject, node: Json, into: Map<string, Json>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectRefs(doc, n, into);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') {
      const m = /^#\/components\/schemas\/([^/]+)$/.exec(v);
      if (!m) throw new Error(`unsupported $ref ${v} under a webhook schema`);
      if (!into.has(m[1]!)) {
        const target = need(get(doc, v), v);
        into.set(m[1]!, target);
        collectRefs(doc, target, into);
      }
    } else collectRefs(doc, v, into);
  }
}

function specValues(doc: JsonObject): string {
  const uploadOp = '#/paths/~1patients~1{patientId}~1documents/post/requestBody';
  const body = need<JsonObject>(deref(doc, get(doc, uploadOp)), uploadOp);
  const multipart = need<JsonObject>(get(body, '#/content/multipart~1form-data'), 'the upload multipart/form-data body');
  const fileSchema = need<JsonObject>(deref(doc, get(deref(doc, multipart.schema) ?? null, '#/properties/file')), 'DocumentUpload.file');
  const maxBytes = need<number>(fileSchema['x-max-bytes'], 'DocumentUpload.file x-max-bytes');
  const contentTypes = need<string>(get(multipart, '#/encoding/file/contentType'), 'the upload encoding.file.contentType')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (typeof maxBytes !== 'number' || maxBytes <= 0) throw new Error('DocumentUpload.file x-max-bytes must be a positive number');

  // The header of the API key scheme the top-level `security` requires.
  const schemeName = need<string>(
    Object.keys(need<JsonObject>(get(doc, '#/security/0'), 'a top-level security requirement'))[0] ?? null,
    'a security scheme name',
  );
  const scheme = need<JsonObject>(get(doc, `#/components/securitySchemes/${schemeName}`), `securitySchemes.${schemeName}`);
  if (scheme.type !== 'apiKey' || scheme.in !== 'header') throw new Error(`security scheme ${schemeName} is not an API key in a header`);
  const apiKeyHeader = need<string>(scheme.name, `securitySchemes.${schemeName}.name`);

  // Event kind -> schema of its JSON delivery (the XML and Form Data deliveries use the same schema).
  const events: JsonObject = {};
  const schemas = new Map<string, Json>();
  for (const [kind, item] of Object.entries(need<JsonObject>(doc.webhooks, 'webhooks'))) {
    const rb = need<JsonObject>(deref(doc, get(item, '#/post/requestBody')), `webhooks.${kind}.post.requestBody`);
    const schema = need<Json>(get(rb, '#/content/application~1json/schema'), `webhooks.${kind} application/json schema`);
    events[kind] = schema;
    collectRefs(doc, schema, schemas);
  }
  // The kit's wordings of the upload and extract answers (x-messages), which the mock says and the suite expects.
  const messagesOf = (schema: string) =>
    need<JsonObject>(get(doc, `#/components/schemas/${schema}/properties/message/x-messages`), `${schema}.message x-messages`);
  const messages = { upload: messagesOf('DocumentUploadResult'), extract: messagesOf('ExtractResult') };
  const webhookSpec = stripExtensions({
    events,
    components: { schemas: Object.fromEntries([...schemas].sort(([a], [b]) => a.localeCompare(b))) },
  });
  return [
    `// ${HEADER}.`,
    '// The spec values the client and webhook helpers read at run time, copied verbatim from the bundle.',
    '',
    `/** Header of the \`${schemeName}\` security scheme: every request carries the API key in it. */`,
    `export const apiKeyHeader = ${JSON.stringify(apiKeyHeader)};`,
    '',
    '/** `x-max-bytes` of DocumentUpload.file: the largest file the upload accepts. */',
    `export const uploadMaxBytes = ${JSON.stringify(maxBytes)};`,
    '',
    '/** `encoding.file.contentType` of the upload: the accepted file types. */',
    `export const uploadContentTypes = ${JSON.stringify(contentTypes)} as const;`,
    '',
    "/** `x-messages` of DocumentUploadResult.message and ExtractResult.message: the kit's wordings of those answers. */",
    `export const messages = ${JSON.stringify(messages, null, 2)} as const;`,
    '',
    '/** Per event kind (the keys of `webhooks`) the schema of its payload, with every component schema it references. */',
    `export const webhookSpec = ${JSON.stringify(webhookSpec, null, 2)} as const;`,
    '',
  ].join('\n');
}

export async function generate(outDir: string, opts: { lint?: boolean } = {}): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  if (opts.lint !== false) run(['lint', SPEC, '--config', join(ROOT, 'redocly.yaml')]);
  const bundlePath = join(outDir, 'openapi.json');
  run(['bundle', SPEC, '--config', join(ROOT, 'redocly.yaml'), '--output', bundlePath]);

  // Re-serialize with a marker first: JSON has no comments, so the header is an extension field.
  const bundled = JSON.parse(readFileSync(bundlePath, 'utf8')) as JsonObject;
  const doc: JsonObject = { 'x-generated': HEADER, ...bundled };
  writeFileSync(bundlePath, `${JSON.stringify(doc, null, 2)}\n`);

  // Programmatic openapi-typescript uses its own minimal Redocly config (not redocly.yaml): linting is step 1's job.
  // defaultNonNullable off: a field with a `default` stays optional in request bodies (the server fills it in).
  const ast = await openapiTS(forTypes(doc) as never, { silent: true, defaultNonNullable: false, cwd: pathToFileURL(`${outDir}/`) });
  const types = `// ${HEADER}.\n\n${astToString(ast)}${aliases(doc)}`;
  writeFileSync(join(outDir, 'types.ts'), types);
  writeFileSync(join(outDir, 'spec-values.ts'), specValues(doc));
  writeFileSync(join(outDir, 'readings.ts'), readingsModule());
}

/** Each reading with the words and rules of the places it belongs to (spec/readings.yaml). */
function readingsModule(): string {
  const { readings, places } = loadReadings();
  const list = readings.map((r) => {
    const mine = places.filter((p) => p.readings.includes(r.id));
    return {
      ...r,
      places: mine.map((p) => p.id),
      words: [...new Set(mine.flatMap((p) => p.words))],
      rules: [...new Set(mine.flatMap((p) => p.rules))].sort(),
    };
  });
  return [
    `// ${HEADER} and spec/readings.yaml.`,
    '',
    '/** Every other reading of the document the catalogue lists: what the server does, where the document allows it. */',
    `export const readingsCatalogue = ${JSON.stringify(list, null, 2)} as const;`,
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? args[outIndex + 1] : join(ROOT, 'generated');
  if (!out) throw new Error('--out needs a directory');
  const start = performance.now();
  await generate(resolve(out), { lint: !args.includes('--no-lint') });
  console.log(`generated ${GENERATED_FILES.join(', ')} in ${out} (${Math.round(performance.now() - start)} ms)`);
}
