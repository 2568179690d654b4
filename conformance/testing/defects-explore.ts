// The defects --explore must find with no check written for them (issue 34): one planted at a time in a loopback
// proxy in front of the mock, each with the exploration check that must fail and the operation it must fail on, and
// what the shrunk case must still hold. Test-only.
import { answer, apiPath, is, jsonOf, setJson, type ProxyRequest } from './broken-proxy.ts';
import type { Breaks } from './check-file.ts';

export interface ExploreDefect {
  defect: string;
  breaks: (mainKey: string) => Breaks;
  /** The check that must fail, and on which operation. */
  check: string;
  operation: RegExp;
  /** What the shrunk case's failing request must still show (its curl lines). */
  shrunkHas: RegExp;
  /** No other rule fails with it (the steps its effect spoils are not judged): one defect, one failing rule. */
  alone?: true;
}

const NON_ASCII = /[^ -~]/; // anything beyond printable ASCII
const names = (b: any) => [b?.name, b?.first_name, b?.last_name].filter((x) => typeof x === 'string') as string[];
const serverError = { error: 'Internal Server Error' };

export const exploreDefects: ExploreDefect[] = [
  {
    defect: 'a 500 on a patient name beyond ASCII',
    breaks: () => ({
      response(res, req) {
        const b = jsonOf(req.body);
        if (
          /^\/patients(\/\d+)?$/.test(apiPath(req)) &&
          (req.method === 'POST' || req.method === 'PATCH') &&
          names(b).some((n) => NON_ASCII.test(n))
        )
          answer(res, 500, serverError);
      },
    }),
    check: 'not_a_server_error',
    operation: /^(POST|PATCH) \/patients/,
    shrunkHas: /"(name|first_name|last_name)":"[^"]*[^ -~][^"]*"/,
  },
  {
    defect: 'a deleted patient still readable',
    breaks: () => {
      // The delete is never carried out: the mock is asked to read the row instead, and the answer says deleted.
      const deletes = new WeakSet<ProxyRequest>();
      return {
        request(req) {
          if (!is(req, 'DELETE', /^\/patients\/\d+$/)) return;
          deletes.add(req);
          req.method = 'GET';
        },
        response(res, req) {
          if (deletes.has(req) && res.status === 200) setJson(res, { success: true });
        },
      };
    },
    check: 'use_after_free',
    operation: /^GET \/patients\/\{patientId\}$/,
    shrunkHas: /-X DELETE [^\n]*\n[^\n]*-X GET/,
  },
  {
    defect: 'created_at missing from the appointment read by id',
    breaks: () => ({
      response(res, req) {
        if (!is(req, 'GET', /^\/appointments\/[^/]+$/) || res.status !== 200) return;
        const b = jsonOf(res.body);
        if (b?.data) delete b.data.created_at;
        setJson(res, b);
      },
    }),
    check: 'response_schema_conformance',
    operation: /^GET \/appointments\/\{appointmentId\}$/,
    shrunkHas: /-X GET '[^']*\/appointments\/[0-9a-f-]{36}'/,
  },
  {
    defect: 'a 500 at the largest limit',
    breaks: () => ({
      response(res, req) {
        if (req.method === 'GET' && new URL(req.url, 'http://proxy').searchParams.get('limit') === '100') answer(res, 500, serverError);
      },
    }),
    check: 'not_a_server_error',
    operation: /^GET \/(patients|appointments|providers|notes)$/,
    shrunkHas: /-X GET '[^']*\/(patients|appointments|providers|notes)\?limit=100'/,
  },
  {
    defect: 'the connection reset on a patient name beyond ASCII',
    breaks: () => ({
      drop: (req) => (is(req, 'POST', /^\/patients$/) && names(jsonOf(req.body)).some((n) => NON_ASCII.test(n)) ? 'reset' : undefined),
    }),
    check: 'positive_data_accepted',
    operation: /^POST \/patients$/,
    shrunkHas: /-X POST '[^']*\/patients'[^\n]*"(name|first_name|last_name)":"[^"]*[^ -~][^"]*"/,
  },
  {
    defect: 'auth ignored on GET /providers',
    breaks: (mainKey) => ({
      request(req) {
        if (is(req, 'GET', /^\/providers$/)) req.headers['x-api-key'] = mainKey;
      },
    }),
    check: 'ignored_auth',
    operation: /^GET \/providers$/,
    shrunkHas: /-X GET '[^']*\/providers'/,
  },
  {
    defect: "another organization's patient delete answered 404 and carried out",
    breaks: (mainKey) => {
      // Any real key other than the owner's (not the explorer's made-up one) deletes as the owner, answered 404.
      const foreign = new WeakSet<ProxyRequest>();
      return {
        request(req) {
          const key = req.headers['x-api-key'];
          if (!is(req, 'DELETE', /^\/patients\/\d+$/) || !key || key === mainKey || key.startsWith('crc-explore-not-a-key')) return;
          foreign.add(req);
          req.headers['x-api-key'] = mainKey;
        },
        response(res, req) {
          if (foreign.has(req)) answer(res, 404, { error: 'Not found' });
        },
      };
    },
    check: 'foreign_write_left_intact',
    operation: /^GET \/patients\/\{patientId\}$/,
    shrunkHas: /-X DELETE/,
    alone: true,
  },
];
