// external_id lookups: the documented 404-on-miss becomes `undefined`; a hit is the one item of `data`.
import { toApiError } from './errors.ts';
import type { LooseCall } from './loose.ts';

export async function findByExternalId(get: LooseCall, path: string, externalId: string, pathParams?: object): Promise<unknown> {
  if (typeof externalId !== 'string' || externalId.length === 0) throw new TypeError('externalId must be a non-empty string');
  const { data, error, response } = await get(path, { params: { path: pathParams, query: { external_id: externalId } } });
  if (response.status === 404) return undefined;
  if (data === undefined) throw toApiError(`GET ${path}?external_id`, response, error);
  const items = (data as { data: unknown[] }).data;
  if (items.length > 1) throw new Error(`GET ${path}?external_id=${externalId} answered ${items.length} items; a lookup answers one`);
  return items[0];
}

/** POST a create body; a 409 with `existing` throws ExternalIdConflictError, any other failure ApiError. */
export async function create(post: LooseCall, path: string, body: unknown, pathParams?: object): Promise<unknown> {
  const { data, error, response } = await post(path, { params: { path: pathParams }, body });
  if (data === undefined) throw toApiError(`POST ${path}`, response, error);
  return data;
}
