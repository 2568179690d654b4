// One change of the structural engine made into the kit's `Change`: where it is (operation, pointer), the rules it
// touches, and what it asks of each audience. The engine rates a change for a client; a server judged by the suite
// sees the mirror image, and the kit's own marks (x-assumption, x-required-scopes) mean things the engine ignores.
import { assumedKeyword } from '../spec/runtime/relax.ts';
import { escapeToken, type Json, type JsonObject, nodesAlong, pointerTokens } from '../spec/runtime/json-pointer.ts';
import { type Bump, type Change, type Impacts, minBump, noImpact } from './model.ts';
import type { Reach } from './reach.ts';
import type { RuleIndex } from './rule-map.ts';
import type { EngineChange } from './structural.ts';

/** Keywords that only describe: changing them asks nothing of anyone (an example changed needs no bump). */
const DOCS = new Set(['description', 'summary', 'example', 'examples', 'title', 'externalDocs', 'x-assumption', 'tags']);
/** Client-breaking verdicts that widen a response: a server judged by the suite gains leeway (minor for it). */
const RESPONSE_WIDENING = new Set([
  'enum-values-added',
  'required-properties-removed',
  'schema-type-changed',
  'schema-constraint-changed',
  'schema-combinator-changed',
  'response-header-removed',
]);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

export interface Docs {
  base: Json;
  head: Json;
  /** The operations that reach a pointer of each side (reach.ts). */
  reach: { base: Reach; head: Reach };
}

type Direction = 'request' | 'response' | 'none';

function locate(pointer: string): { path?: string; method?: string; direction: Direction } {
  const t = pointerTokens(pointer);
  if ((t[0] !== 'paths' && t[0] !== 'webhooks') || !t[1]) return { direction: 'none' };
  const method = t[2] && METHODS.has(t[2]) ? t[2] : undefined;
  const rest = t.slice(method ? 3 : 2);
  const sent: Direction = rest[0] === 'responses' ? 'response' : rest[0] === 'requestBody' || rest[0] === 'parameters' ? 'request' : 'none';
  // A webhook is a request the server sends and the receiver answers (the engine rates it so for the receiver too).
  const direction: Direction = t[0] !== 'webhooks' || sent === 'none' ? sent : sent === 'request' ? 'response' : 'request';
  return { path: t[0] === 'webhooks' ? `webhook ${t[1]}` : t[1], ...(method ? { method: method.toUpperCase() } : {}), direction };
}

/** Maps whose keys are names, not keywords: a property called `title` removed is not a `title` edited. */
const NAMED = new Set(['properties', 'patternProperties', 'responses', 'headers', 'content', 'schemas', 'parameters', 'paths', 'webhooks']);
function keywordOf(c: EngineChange): string {
  if (c.property) return c.property;
  const t = pointerTokens(c.path);
  return NAMED.has(t.at(-2) ?? '') ? '' : (t.at(-1) ?? '');
}
const written = (c: EngineChange) =>
  [c.revision?.pointer, c.base?.pointer, ...c.verdicts.map((v) => v.location?.pointer)].filter(Boolean) as string[];

/** Did the kit mark what changed as its own choice: the keyword on its node, or a node added or removed whole? */
function specAssumed(c: EngineChange, docs: Docs): boolean {
  const sides: Array<[Json, string | undefined]> = [
    [docs.head, c.revision?.pointer],
    [docs.base, c.base?.pointer],
  ];
  return sides.some(([doc, pointer]) => {
    const nodes = pointer ? nodesAlong(doc, pointer) : undefined;
    if (!pointer || !nodes) return false;
    const self = nodes.at(-1);
    if (c.kind !== 'modified' && isObject(self) && 'x-assumption' in self && !('x-assumption-keywords' in self)) return true;
    // The pointer names the keyword itself (…/schema/maximum) or the node that changed.
    const owner = pointerTokens(pointer).at(-1) === keywordOf(c) ? nodes.at(-2) : self;
    return isObject(owner) && assumedKeyword(owner, keywordOf(c));
  });
}

const isObject = (n: Json | undefined): n is JsonObject => !!n && typeof n === 'object' && !Array.isArray(n);

/** A kit extension: x-assumption marks move a node between judged and not judged by default; scopes are security. */
function extensionImpacts(c: EngineChange, keyword: string): { impacts: Impacts; why: string } {
  if (keyword === 'x-required-scopes') return { impacts: all('major'), why: 'the scope an operation needs' };
  if (keyword === 'x-assumption' || keyword === 'x-assumption-keywords') {
    const before = c.base?.value;
    const after = c.revision?.value;
    const judgedLess =
      c.kind === 'added' ||
      (keyword === 'x-assumption-keywords' && Array.isArray(after) && (!Array.isArray(before) || before.every((k) => after.includes(k))));
    const suite: Bump = judgedLess ? 'minor' : 'major';
    return {
      impacts: { ...noImpact(), implementations: suite },
      why: judgedLess ? 'became the kit’s choice' : 'no longer the kit’s choice',
    };
  }
  return { impacts: all('patch'), why: `kit extension ${keyword}` };
}

const all = (b: Bump): Impacts => ({ clients: b, 'mock users': b, implementations: b });

/** What a server judged by the suite must now do differently: new obligations are major, new leeway minor. */
function suiteBump(c: EngineChange, direction: Direction): { bump: Bump; why: string } {
  if (c.typeName === 'Operation' || c.typeName === 'PathItem')
    return c.kind === 'added'
      ? { bump: 'major', why: 'a new operation to serve' }
      : { bump: 'minor', why: 'an operation no longer judged' };
  if (/^Security/.test(c.typeName) || c.verdicts.some((v) => v.ruleId.startsWith('security'))) return { bump: 'major', why: 'security' };
  if (direction === 'request') return { bump: 'major', why: 'request: the suite judges what a server accepts and refuses' };
  if (direction === 'none') return { bump: 'patch', why: 'outside any operation' };
  if (c.verdicts.length)
    return c.verdicts.every((v) => RESPONSE_WIDENING.has(v.ruleId))
      ? { bump: 'minor', why: 'response widened' }
      : { bump: 'major', why: 'response narrowed' };
  return c.kind === 'added' ? { bump: 'minor', why: 'response may carry more' } : { bump: 'major', why: 'response narrowed' };
}

const STRUCTURE = new Set(['properties', 'items', 'schema', 'content', 'application/json', 'allOf', 'anyOf', 'oneOf']);
const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** What a change is about, named: a property, a parameter (by its name), a status, a media type. */
function nameOf(c: EngineChange, docs: Docs): string {
  const t = pointerTokens(c.path);
  for (let i = t.length - 1; i >= 0; i--) {
    const [token, before] = [t[i]!, t[i - 1]];
    if (token === c.property || (STRUCTURE.has(token) && before !== 'properties')) continue;
    if (before === 'responses') return `status ${token}`;
    if (before === 'parameters' && /^\d+$/.test(token)) {
      const at = `/${t
        .slice(0, i + 1)
        .map(escapeToken)
        .join('/')}`;
      const param = (nodesAlong(docs.head, at) ?? nodesAlong(docs.base, at))?.at(-1);
      const resolved = isObject(param) && typeof param.$ref === 'string' ? nodesAlong(docs.head, param.$ref)?.at(-1) : param;
      return isObject(resolved) && typeof resolved.name === 'string' ? `${resolved.name} parameter` : `parameter ${token}`;
    }
    if (!/^\d+$/.test(token)) return token;
  }
  return '';
}

/** The engine's own words when it has a verdict, else what changed and from what to what. */
function describe(c: EngineChange, docs: Docs): string {
  if (c.verdicts.length) return c.verdicts.map((v) => v.message).join(' ');
  const name = nameOf(c, docs);
  if (c.kind !== 'modified' && c.typeName === 'SpecExtension') return `\`${c.property}\` ${c.kind} on \`${name}\``;
  if (c.kind !== 'modified' || !c.property) return `${c.typeName} \`${name}\` ${c.kind}`;
  if (c.base?.value === undefined) return `\`${c.property}\` of \`${name}\` set to ${short(c.revision?.value)}`;
  if (c.revision?.value === undefined) return `\`${c.property}\` of \`${name}\` removed (was ${short(c.base.value)})`;
  return `\`${c.property}\` of \`${name}\` changed from ${short(c.base.value)} to ${short(c.revision.value)}`;
}

function reached(c: EngineChange, docs: Docs, at: { path?: string; method?: string }): { operations?: string[] } {
  const ops = new Set(written(c).flatMap((p) => [...docs.reach.head(p), ...docs.reach.base(p)]));
  if (at.path && ops.size) ops.add(at.path.startsWith('webhook ') ? at.path : `${at.method} ${at.path}`);
  return ops.size ? { operations: [...ops].sort() } : {};
}

export function classify(c: EngineChange, docs: Docs, rules: RuleIndex): Change {
  const { direction, ...at } = locate(c.path);
  const keyword = keywordOf(c);
  const touched = rules.touched([c.path, ...written(c)]);
  const base = {
    source: 'contract' as const,
    kind: c.kind,
    where: { ...at, pointer: c.path.replace(/^#/, ''), ...reached(c, docs, at) },
    rules: touched,
  };
  const message = describe(c, docs);
  if (DOCS.has(keyword) && (c.kind === 'modified' || keyword !== 'x-assumption'))
    return { ...base, message, impacts: noImpact(), why: 'description only' };
  if (keyword.startsWith('x-')) return { ...base, message, ...extensionImpacts(c, keyword) };
  // The engine flags a narrowed request; an unflagged request modification is a widening: new leeway for clients.
  const client: Bump = direction === 'request' && c.kind === 'modified' && !c.verdicts.length ? 'minor' : c.impact;
  const suite = suiteBump(c, direction);
  const assumed = specAssumed(c, docs) || (touched.length > 0 && touched.every((id) => rules.provenance(id) === 'assumed'));
  const implementations = assumed ? minBump(suite.bump, 'minor') : suite.bump;
  const rated = c.verdicts.map((v) => v.ruleId).join(', ') || `${c.kind}, ${direction}`;
  const why = `${rated}; suite: ${suite.why}${assumed && implementations !== suite.bump ? ' (assumed: not judged by default)' : ''}`;
  return { ...base, message, impacts: { clients: client, 'mock users': client, implementations }, why };
}
