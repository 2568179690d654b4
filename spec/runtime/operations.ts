// The operation table of the contract (every method + path template under `paths`, with its inherited parameters
// and required scopes) and one matcher from a concrete path to the templates it fits. Read by the mock's engine,
// the mock's Prism front, the conformance suite and Dredd, so "which operation is this request" means one thing.
import { deref, type Json, type JsonObject } from './json-pointer.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  path: string;
  method: (typeof HTTP_METHODS)[number];
  operation: JsonObject;
  /** Path-level parameters followed by the operation's own. */
  parameters: JsonObject[];
}

/** Every operation under `paths`, with its inherited parameters resolved. */
export function operations(doc: JsonObject): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    const pathItem = item as JsonObject;
    const shared = ((pathItem.parameters ?? []) as Json[]).map((p) => deref(doc, p) as JsonObject);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      const own = ((operation.parameters ?? []) as Json[]).map((p) => deref(doc, p) as JsonObject);
      out.push({ path, method, operation, parameters: [...shared, ...own] });
    }
  }
  return out;
}

/** The scopes an operation requires (`x-required-scopes`), empty when it names none. */
export const requiredScopes = (operation: JsonObject): string[] => ((operation['x-required-scopes'] ?? []) as string[]).slice();

/** The names of a template's parameters in order: /patients/{patientId} -> ['patientId']. */
export const templateParams = (template: string): string[] => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Anything routed by method and path template: an operation entry, Prism's operation, the engine's own. */
interface Routable {
  method: string;
  path: string;
}

interface PathMatch<T> {
  /** Every route of the first template (literal segments first) the path fits, whatever its method. */
  routes: T[];
  /** The template's parameters, percent-decoded where they decode. */
  params: Record<string, string>;
}

export interface MatcherOptions<T> {
  /** Whether `/patients/` fits `/patients` (the suite and Prism's front say yes; the engine says no). */
  trailingSlash?: boolean;
  /** A route's path template, where it is not its `path`. */
  template?: (route: T) => string;
}

export interface PathMatcher<T> {
  /** The first template the path fits, with all its routes; undefined when none fits. */
  match(path: string): PathMatch<T> | undefined;
  /** Every route of `method` whose template the path fits, literal templates first (/notes/export, /notes/{noteId}). */
  candidates(method: string, path: string): T[];
  /** The first of `candidates`: the operation a request is. */
  find(method: string, path: string): T | undefined;
}

interface Template<T> {
  /** The path template, e.g. /patients/{patientId}. */
  source: string;
  re: RegExp;
  names: string[];
  routes: T[];
}

/** Compiles the templates once; a literal segment beats a parameter (/notes/export before /notes/{noteId}). */
export function createMatcher<T extends { method: string }>(routes: readonly T[], options: MatcherOptions<T> = {}): PathMatcher<T> {
  const templateOf = options.template ?? ((r: T) => (r as unknown as Routable).path);
  const byPath = new Map<string, T[]>();
  for (const r of routes) byPath.set(templateOf(r), [...(byPath.get(templateOf(r)) ?? []), r]);
  const literals = (path: string) => path.split('/').filter((s) => s && !s.startsWith('{')).length;
  const templates: Template<T>[] = [...byPath.entries()]
    .sort(([a], [b]) => literals(b) - literals(a))
    .map(([path, group]) => ({
      source: path,
      re: new RegExp(`^${templateSource(path)}${options.trailingSlash ? '/?' : ''}$`),
      names: templateParams(path),
      routes: group,
    }));
  // A template fits only paths with as many slashes as it has (a parameter never spans one): each path is tried
  // against those templates only, in the same order. With trailingSlash, a path ending in `/` is tried against all.
  const bySlashes = new Map<number, Template<T>[]>();
  for (const t of templates) {
    const n = slashes(t.source);
    bySlashes.set(n, [...(bySlashes.get(n) ?? []), t]);
  }
  const fitting = (path: string) => (options.trailingSlash && path.endsWith('/') ? templates : (bySlashes.get(slashes(path)) ?? []));
  const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();
  const candidates = (method: string, path: string) =>
    fitting(path)
      .filter((t) => t.re.test(path))
      .flatMap((t) => t.routes.filter((r) => same(r.method, method)));
  return {
    match(path) {
      for (const t of fitting(path)) {
        const m = t.re.exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        for (let i = 0; i < t.names.length; i++) params[t.names[i]!] = safeDecode(m[i + 1]!);
        return { routes: t.routes, params };
      }
      return undefined;
    },
    candidates,
    find: (method, path) => candidates(method, path)[0],
  };
}

/** A template as a regex source: literal text escaped, each {param} one non-empty segment (captured). */
function templateSource(template: string): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

/** How many `/` a path has. */
function slashes(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) n++;
  return n;
}

function safeDecode(s: string): string {
  if (!s.includes('%')) return s; // nothing to decode: decodeURIComponent would return it unchanged
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
