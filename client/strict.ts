// Stricter signatures for openapi-fetch's methods. openapi-fetch infers `init` from the argument and adds
// `[key: string]: unknown`, so a misspelt body field compiles (openapi-ts/openapi-typescript#1769, #2329). Here the
// path is inferred first and `init` is then the concrete FetchOptions of that operation, so TypeScript's excess
// property check applies to the object literal. Runtime is unchanged: the same functions, retyped.
import type { FetchOptions, FetchResponse } from 'openapi-fetch';
import type { paths } from '../generated/types.ts';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** Paths that define the method (openapi-typescript writes `put?: never` for the others). */
export type PathsWith<M extends HttpMethod> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];
export type OperationOf<P extends keyof paths, M extends HttpMethod> = paths[P] extends {
  [K in M]: infer O extends Record<string | number, unknown>;
}
  ? O
  : never;
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` is the test for "every property of T is optional"
type InitArgs<O> = {} extends FetchOptions<O> ? [init?: FetchOptions<O>] : [init: FetchOptions<O>];

export type StrictMethod<M extends HttpMethod> = <P extends PathsWith<M>>(
  url: P,
  ...init: InitArgs<OperationOf<P, M>>
) => Promise<FetchResponse<OperationOf<P, M>, FetchOptions<OperationOf<P, M>>, `${string}/${string}`>>;

export interface StrictMethods {
  GET: StrictMethod<'get'>;
  POST: StrictMethod<'post'>;
  PATCH: StrictMethod<'patch'>;
  PUT: StrictMethod<'put'>;
  DELETE: StrictMethod<'delete'>;
}
