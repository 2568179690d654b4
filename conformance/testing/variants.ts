// The catalogue of broken variants: each breaks one rule of the mock's answers (or requests) on purpose, so the
// suite's tests can prove each check fails on that rule's id. Served by broken-proxy.ts. Test-only.
import { answer, apiPath, is, jsonOf, setJson, type Variant, type VariantKeys } from './broken-proxy.ts';
import { operationsMisanswered } from './variants-operations.ts';

/**
 * A request the service must refuse let through (an unknown field; a scoped, foreign or expired key), or a part an
 * answer must carry left out (a 409's existing, the rate-limit header).
 */
function refusalsAndRequiredParts(keys: VariantKeys): Variant[] {
  return [
    {
      name: 'unknown field accepted',
      area: 'validation',
      rule: 'GEN-010',
      request(req) {
        const b = jsonOf(req.body);
        if (b && typeof b === 'object' && 'crc_unknown_field' in b) {
          delete b.crc_unknown_field;
          req.body = Buffer.from(JSON.stringify(b));
        }
      },
    },
    {
      name: '409 without existing',
      area: 'external-id',
      rule: 'XID-006',
      response(res) {
        const b = jsonOf(res.body);
        if (res.status === 409 && b?.existing) {
          delete b.existing;
          setJson(res, b);
        }
      },
    },
    {
      name: 'missing rate-limit header',
      area: 'responses',
      rule: 'RATE-001',
      response(res) {
        delete res.headers['x-ratelimit-remaining'];
      },
    },
    {
      name: 'scope not enforced',
      area: 'scopes',
      rule: 'AUTH-023',
      request(req) {
        if (keys.scoped.includes(req.headers['x-api-key'] ?? '')) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: "another organization's patient readable",
      area: 'tenancy',
      rule: 'GEN-001',
      request(req) {
        if (req.headers['x-api-key'] === keys.otherOrg) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'expired key accepted',
      area: 'auth',
      rule: 'AUTH-009',
      request(req) {
        if (req.headers['x-api-key'] === keys.expired) req.headers['x-api-key'] = keys.main;
      },
    },
  ];
}

/**
 * A value of an answer rewritten (total_pages, ids as JSON numbers, a PATCH's external_id), or a key not checked at
 * all (an unknown or revoked one taken as the main key).
 */
function valuesAndUncheckedKeys(keys: VariantKeys): Variant[] {
  return [
    {
      name: 'wrong total_pages',
      area: 'pagination',
      rule: 'PAG-004',
      response(res) {
        const b = jsonOf(res.body);
        if (b?.meta && typeof b.meta.total_pages === 'number') {
          b.meta.total_pages += 1;
          setJson(res, b);
        }
      },
    },
    {
      name: 'numeric patient id',
      area: 'patients',
      rule: 'GEN-008',
      response(res, req) {
        if (!apiPath(req).startsWith('/patients')) return;
        res.body = Buffer.from(res.body.toString('utf8').replace(/"id":"(\d+)"/g, '"id":$1'));
      },
    },
    {
      // Every patient id, wherever it appears (id, patient_id), a JSON number: precision permitting, a reader that
      // takes ids whatever their JSON type goes on.
      name: 'numeric ids',
      area: 'gen',
      rule: 'GEN-008',
      response(res) {
        if (!/json/.test(res.headers['content-type'] ?? '')) return;
        res.body = Buffer.from(res.body.toString('utf8').replace(/"(id|patient_id)":"(\d+)"/g, '"$1":$2'));
      },
    },
    {
      name: 'PATCH answer shows a new external_id',
      area: 'xid',
      rule: 'XID-005',
      response(res, req) {
        const sent = jsonOf(req.body);
        const b = jsonOf(res.body);
        if (req.method === 'PATCH' && typeof sent?.external_id === 'string' && b?.data) {
          b.data.external_id = sent.external_id;
          setJson(res, b);
        }
      },
    },
    {
      name: 'keys ignored',
      area: 'auth',
      rule: 'AUTH-001',
      request(req) {
        const known = [keys.main, keys.otherOrg, keys.expired, keys.revoked, ...keys.scoped];
        if (!known.includes(req.headers['x-api-key'])) req.headers['x-api-key'] = keys.main;
      },
    },
    {
      name: 'revoked key accepted',
      area: 'auth',
      rule: 'AUTH-010',
      request(req) {
        if (keys.revoked && req.headers['x-api-key'] === keys.revoked) req.headers['x-api-key'] = keys.main;
      },
    },
  ];
}

/** A create, delete, regeneration or lookup miss answered with another status. */
function wrongStatuses(): Variant[] {
  return [
    {
      name: 'create answers 200',
      area: 'pat',
      rule: 'PAT-021',
      response(res, req) {
        if (is(req, 'POST', /^\/patients$/) && res.status === 201) res.status = 200;
      },
    },
    {
      name: 'delete answers 204 without a body',
      area: 'pat',
      rule: 'PAT-024',
      response(res, req) {
        if (!is(req, 'DELETE', /^\/patients\/\d+$/) || res.status !== 200) return;
        res.status = 204;
        res.body = Buffer.alloc(0);
        delete res.headers['content-type'];
      },
    },
    {
      name: 'regenerate answers 200',
      area: 'regen',
      rule: 'REGEN-008',
      response(res, req) {
        if (is(req, 'POST', /^\/sessions\/[^/]+\/notes\/regenerate$/) && res.status === 202) res.status = 200;
      },
    },
    {
      name: 'lookup miss answers 200',
      area: 'xid',
      rule: 'XID-010',
      response(res, req) {
        if (req.method !== 'GET' || !/[?&]external_id=/.test(req.url) || res.status !== 404) return;
        answer(res, 200, /\/documents$/.test(apiPath(req)) ? { data: [] } : { data: [], meta: { page: 1, limit: 20, total_pages: 1 } });
      },
    },
  ];
}

/**
 * Defects only the kit's readings catch (--profile all): date filters, the upload limit, page 0, the Idempotency-Key
 * length.
 */
function kitReadingsBroken(): Variant[] {
  let stored: Buffer | undefined;
  return [
    {
      name: 'appointment date filters ignored',
      area: 'appointments',
      rule: 'APT-027',
      profile: 'all',
      request(req) {
        if (req.method !== 'GET' || apiPath(req) !== '/appointments') return;
        const u = new URL(req.url, 'http://proxy');
        for (const k of ['date', 'start_date', 'end_date']) u.searchParams.delete(k);
        req.url = u.pathname + u.search;
      },
    },
    {
      name: 'oversized upload accepted',
      area: 'documents',
      rule: 'DOC-032',
      profile: 'all',
      response(res, req) {
        // An upload past the limit stored like any other: 201 with a document (the last one this proxy saw stored).
        if (!is(req, 'POST', /^\/patients\/\d+\/documents$/)) return;
        if (res.status === 201) stored = res.body;
        else if (res.status === 413 && stored)
          Object.assign(res, { status: 201, body: stored, headers: { ...res.headers, 'content-type': 'application/json' } });
      },
    },
    {
      name: 'page 0 accepted',
      area: 'pagination',
      rule: 'PAG-007',
      profile: 'all',
      request(req) {
        req.url = req.url.replace(/([?&])page=0(&|$)/, '$1page=1$2');
      },
    },
    {
      name: 'Idempotency-Key length not bounded',
      area: 'regeneration',
      rule: 'REGEN-018',
      profile: 'all',
      request(req) {
        const k = req.headers['idempotency-key'];
        if (k !== undefined && k.length > 255) req.headers['idempotency-key'] = k.slice(0, 255);
      },
    },
  ];
}

/** A sequence broken: DELETE answered success while the patient stays (the request is sent on as a GET). */
function deleteKeepsThePatient(): Variant {
  return {
    name: 'delete answers success but keeps the patient',
    area: 'sequences',
    rule: 'PAT-024',
    request(req) {
      if (req.method === 'DELETE' && /^\/patients\/\d+$/.test(apiPath(req))) {
        req.method = 'GET';
        req.headers['x-crc-fake-delete'] = '1';
      }
    },
    response(res, req) {
      if (req.headers['x-crc-fake-delete'] && res.status === 200) setJson(res, { success: true });
    },
  };
}

export function variants(keys: VariantKeys): Variant[] {
  return [
    ...refusalsAndRequiredParts(keys),
    ...valuesAndUncheckedKeys(keys),
    ...wrongStatuses(),
    ...operationsMisanswered(keys),
    ...kitReadingsBroken(),
    deleteKeepsThePatient(),
  ];
}
