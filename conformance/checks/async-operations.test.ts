// The async-operation checks against the mock (they pass, documented assumptions skipped, nothing left behind), then
// each against behaviour that breaks its one rule: a loopback proxy in front of the mock, a receiver that alters the
// webhook deliveries it records, or a mock that issues other keys. The check must fail, citing that rule's id.
import { describe, it } from 'vitest';
import { startMock } from '../../mock/server.ts';
import { readSeedFile } from '../../mock/seed/load.ts';
import { TamperingReceiver } from '../testing/tampering-receiver.ts';
import { apiPath, is, jsonOf, setJson, type ProxyRequest, type ProxyResponse } from '../testing/broken-proxy.ts';
import { checksNamed, describeBrokenVariants, describeCheckFile, type Breaks } from '../testing/check-file.ts';

// ----- helpers of the variants -----
const UPLOAD = /^\/patients\/\d+\/documents$/;
const REGENERATE = /^\/sessions\/[^/]+\/notes\/regenerate$/;
/** Edits a JSON response body in place (when it is JSON). */
const editBody = (res: ProxyResponse, fn: (b: any) => void) => {
  const b = jsonOf(res.body);
  if (!b || typeof b !== 'object') return;
  fn(b);
  setJson(res, b);
};
const editQuery = (req: ProxyRequest, fn: (q: URLSearchParams) => void) => {
  const u = new URL(req.url, 'http://proxy');
  fn(u.searchParams);
  req.url = u.pathname + u.search;
};

/** Every upload answers `completed`, as a service that waited for the extraction would. */
const uploadAnswersCompleted: Breaks = {
  response: (res, req) =>
    is(req, 'POST', UPLOAD) &&
    res.status === 201 &&
    editBody(res, (b) => Object.assign(b.data, { status: 'completed', has_extracted_text: true })),
};

/** Every upload answered only once its extraction ended, with the status it ended in: a service that waits for it. */
function uploadWaitsForExtraction(): Breaks {
  return {
    async response(res, req) {
      const b = jsonOf(res.body);
      if (!is(req, 'POST', UPLOAD) || res.status !== 201 || !b?.data?.id) return;
      const list = `${new URL(file.mock().url).origin}${req.url}`;
      for (let i = 0; i < 500; i++) {
        const r = await fetch(list, { headers: { 'x-api-key': req.headers['x-api-key'] ?? '' } });
        const doc = ((await r.json()).data ?? []).find((d: { id: string }) => d.id === b.data.id);
        if (doc?.status === 'completed' || doc?.status === 'failed') return editBody(res, (body) => (body.data = doc));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/** A terminal status seen once per document, then `processing` again (a run that never really ends). */
function terminalFlips(): Breaks {
  const seen = new Set<string>();
  return {
    response(res, req) {
      if (!is(req, 'GET', /^\/patients\/\d+\/documents$/)) return;
      editBody(res, (b) => {
        for (const d of Array.isArray(b.data) ? b.data : [])
          if (d.status === 'completed' || d.status === 'failed') {
            if (seen.has(d.id)) d.status = 'processing';
            else seen.add(d.id);
          }
      });
    },
  };
}

/** An Idempotency-Key deduplicated across sessions: a key seen on one session swallows the request on another. */
function globalIdempotency(): Breaks {
  const owner = new Map<string, string>();
  return {
    request(req) {
      const key = req.headers['idempotency-key'];
      if (!is(req, 'POST', REGENERATE) || !key) return;
      const session = apiPath(req).split('/')[2]!;
      if (!owner.has(key)) owner.set(key, session);
      if (owner.get(key) === session) return;
      req.method = 'GET';
      req.url = req.url.replace(/\/regenerate$/, '');
      req.headers['x-crc-swallowed'] = session;
      req.body = Buffer.alloc(0);
    },
    response(res, req) {
      const session = req.headers['x-crc-swallowed'];
      if (!session) return;
      res.status = 202;
      setJson(res, { data: { session_id: session, status: 'queued' }, message: 'Note regeneration queued.' });
    },
  };
}

/** One rate-limit counter for every key: X-RateLimit-Remaining counts all requests, whoever sends them. */
function sharedRateCounter(): Breaks {
  let n = 0;
  return {
    response(res) {
      const limit = Number(res.headers['x-ratelimit-limit']);
      if (Number.isInteger(limit)) res.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - ++n));
    },
  };
}

// One variant per check: [check name, rule it must fail on, what the variant breaks].
const broken: Array<[string, string, () => Breaks, string?]> = [
  [
    'extracted_text_never_returned',
    'DOC-009',
    () => ({
      response: (res, req) =>
        is(req, 'GET', /^\/patients\/\d+\/documents$/) &&
        editBody(res, (b) => {
          for (const d of Array.isArray(b.data) ? b.data : []) if (d.has_extracted_text) d.extracted_text = 'Conformance extraction text';
        }),
    }),
  ],
  ['terminal_status_stays', 'DOC-012', terminalFlips],
  ['upload_status_is_a_real_state', 'DOC-014', () => uploadAnswersCompleted],
  [
    'upload_does_not_wait_for_extraction',
    'DOC-025',
    uploadWaitsForExtraction,
    // Only time shows an upload that waits: under extraction-fast (every run ends within 2 s) waiting and "extraction
    // finished before the response was built" look alike, as the document allows.
    'extraction-fast makes waiting indistinguishable from a fast extractor',
  ],
  [
    'queued_upload_message_says_started',
    'DOC-026',
    () => ({ response: (res, req) => is(req, 'POST', UPLOAD) && editBody(res, (b) => (b.message = 'Document uploaded successfully.')) }),
  ],
  [
    'extract_endpoint_status_codes',
    'DOC-031',
    () => ({ response: (res, req) => /\/extract$/.test(apiPath(req)) && res.status === 503 && editBody(res, (b) => delete b.details) }),
  ],
  [
    'upload_message_wordings',
    'DOC-036',
    () => ({
      response: (res, req) =>
        is(req, 'POST', UPLOAD) && editBody(res, (b) => (b.message = String(b.message).replace('successfully', 'OK'))),
    }),
  ],
  [
    'notes_list_filters',
    'NOTE-015',
    () => ({ request: (req) => is(req, 'GET', /^\/notes$/) && editQuery(req, (q) => q.delete('template_id')) }),
  ],
  [
    'notes_filter_parameter_names',
    'NOTE-024',
    () => ({
      // created_after made exclusive: a date-time bound moved one millisecond later.
      request: (req) =>
        is(req, 'GET', /^\/notes$/) &&
        editQuery(req, (q) => {
          const v = q.get('created_after');
          if (v?.includes('T')) q.set('created_after', new Date(Date.parse(v) + 1).toISOString());
        }),
    }),
  ],
  [
    'notes_export_layouts',
    'NOTE-025',
    () => ({
      request: (req) => is(req, 'GET', /^\/notes\/export$/) && editQuery(req, (q) => !q.has('format') && q.set('format', 'ndjson')),
    }),
  ],
  [
    'free_text_enumerations',
    'NOTE-028',
    () => ({
      response(res, req) {
        const type = new URL(req.url, 'http://proxy').searchParams.get('note_type');
        if (!is(req, 'GET', /^\/notes$/) || type === null || ['progress_note', 'therapy_note', 'intake'].includes(type)) return;
        res.status = 400;
        setJson(res, { error: 'Validation failed', details: { note_type: 'must be one of progress_note, therapy_note, intake' } });
      },
    }),
  ],
  [
    'idempotency_key_still_deduplicated',
    'REGEN-004',
    () => ({ request: (req) => is(req, 'POST', REGENERATE) && delete req.headers['idempotency-key'] }),
  ],
  [
    'regenerate_body_optional',
    'REGEN-005',
    () => ({
      response(res, req) {
        if (!is(req, 'POST', REGENERATE) || req.body.length) return;
        res.status = 400;
        setJson(res, { error: 'A JSON body is required' });
      },
    }),
  ],
  [
    'regenerate_template_id',
    'REGEN-006',
    () => ({
      request(req) {
        const b = jsonOf(req.body);
        if (!is(req, 'POST', REGENERATE) || !b?.template_id) return;
        delete b.template_id;
        setJson(req, b);
      },
    }),
  ],
  [
    'regenerate_model_tiers',
    'REGEN-007',
    () => ({
      response(res, req) {
        if (!is(req, 'POST', REGENERATE) || jsonOf(req.body)?.model !== 'detailed') return;
        res.status = 400;
        setJson(res, { error: 'Validation failed', details: { model: 'must be fast or balanced' } });
      },
    }),
  ],
  [
    'regenerate_invalid_400',
    'REGEN-009',
    () => ({ response: (res, req) => is(req, 'POST', REGENERATE) && res.status === 400 && (res.status = 422) }),
  ],
  [
    'regeneration_under_a_minute',
    'REGEN-015',
    () => ({
      // The regenerated note carries an updated_at two minutes after the request (the session notes endpoint lists it).
      response: (res, req) =>
        is(req, 'GET', /^\/sessions\/[^/]+\/notes$/) &&
        editBody(res, (b) => {
          for (const n of Array.isArray(b.data?.notes) ? b.data.notes : [])
            if (n.updated_at) n.updated_at = new Date(Date.parse(n.updated_at) + 120_000).toISOString();
        }),
    }),
  ],
  [
    'regenerate_default_tier_balanced',
    'REGEN-017',
    () => ({
      request(req) {
        const b = jsonOf(req.body) ?? {};
        if (!is(req, 'POST', REGENERATE) || Array.isArray(b) || 'model' in b) return;
        setJson(req, { ...b, model: 'fast' });
        req.headers['content-type'] = 'application/json';
      },
    }),
  ],
  [
    'regenerate_400_body_shape',
    'REGEN-020',
    () => ({
      response: (res, req) => is(req, 'POST', REGENERATE) && res.status === 400 && editBody(res, (b) => (b.code = 'VALIDATION_FAILED')),
    }),
  ],
  ['idempotency_key_per_session', 'LIM-006', globalIdempotency],
  ['rate_limit_counted_per_key', 'RATE-007', sharedRateCounter],
];

const provenElsewhere = ['regeneration_sends_note_regenerated', 'mock_key_prefix_crk'];
const checks = checksNamed([...broken.map(([n]) => n), ...provenElsewhere]);
const file = describeCheckFile('async-operation checks', checks, { notes_list_filters: /NOTE-024/ });

describeBrokenVariants('async-operation checks', file, checks, broken, provenElsewhere);

describe('async-operation checks against a tampering receiver and a mock with other keys', () => {
  it('regeneration_sends_note_regenerated fails on REGEN-016 when the delivery names another event', async () => {
    const receiver = new TamperingReceiver((j) => (j.event === 'NOTE_REGENERATED' ? { ...j, event: 'NOTE_UPDATED' } : j));
    await file.expectFails('regeneration_sends_note_regenerated', 'REGEN-016', { url: file.mock().url, receiver });
  }, 20_000);

  it('mock_key_prefix_crk fails on AUTH-026 against a mock that issues keys with another prefix', async () => {
    const seed = readSeedFile();
    const other = await startMock({
      port: 0,
      host: '127.0.0.1',
      mode: 'engine-only',
      seed: { ...seed, keys: seed.keys.map((k) => ({ ...k, key: k.key.replace(/^crk_/, 'key_') })) },
      timeScale: 0.01,
      quiet: true,
      rateLimit: { requests: 1_000_000, seconds: 60 },
    });
    try {
      await file.expectFails('mock_key_prefix_crk', 'AUTH-026', { url: other.url });
    } finally {
      await other.close();
    }
  }, 20_000);
});
