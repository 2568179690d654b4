// Type-level views of the generated `paths` that the helpers need: which paths list things, what they list, and
// which parameters they take. Everything is computed from the spec's types; nothing is listed by hand.
import type { paths } from '../generated/types.ts';

type Get<P> = P extends keyof paths ? (paths[P] extends { get: infer O } ? O : never) : never;
type Post<P> = P extends keyof paths ? (paths[P] extends { post: infer O } ? O : never) : never;
type Ok<O, S extends number> = O extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;
type ParamsOf<O> = O extends { parameters: infer X } ? X : never;

/** Paths whose GET answers `{ data: [...] }` (with or without `meta`). */
export type ListPath = { [P in keyof paths]: Ok<Get<P>, 200> extends { data: ReadonlyArray<unknown> } ? P : never }[keyof paths];
/** One item of a list path's `data`. */
export type ItemOf<P extends ListPath> = Ok<Get<P>, 200> extends { data: ReadonlyArray<infer T> } ? T : never;
/** The query of a list path, without `page` (the iterator owns it). */
type ListQuery<P extends ListPath> = Omit<NonNullable<ParamsOf<Get<P>>['query']>, 'page'>;
/** List paths that accept an `external_id` lookup. */
export type LookupPath = {
  [P in ListPath]: 'external_id' extends keyof NonNullable<ParamsOf<Get<P>>['query']> ? P : never;
}[ListPath];

/** `[params]` when the path has path parameters, `[]` otherwise. */
type PathArgs<O> = ParamsOf<O> extends { path: infer X } ? [pathParams: X] : [];
export type GetPathArgs<P> = PathArgs<Get<P>>;

/** POST paths that may answer the 409 external_id conflict. */
export type CreatePath = {
  [P in keyof paths]: Post<P> extends { responses: { 409: { content: { 'application/json': { existing: unknown } } } } } ? P : never;
}[keyof paths];
export type CreateBody<P extends CreatePath> = Post<P> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
export type Created<P extends CreatePath> = Ok<Post<P>, 201>;

/** The init of a list call: path params when the path has some, and the query. */
export type ListInit<P extends ListPath> =
  ParamsOf<Get<P>> extends { path: infer X } ? [init: { path: X; query?: ListQuery<P> }] : [init?: { query?: ListQuery<P> }];
