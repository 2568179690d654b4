// Each reading of spec/readings.yaml the engine plays is played: a probe request answers differently under it than
// under the kit's reading, and as the catalogue says. A reading that were a no-op would make the suite's pass on it
// (conformance/testing/readings.test.ts) prove nothing; a probe per reading keeps them honest. Timing and webhook readings
// are probed on their own units (the extraction and regeneration clocks, the payload shaper).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingsCatalogue } from '../../generated/readings.ts';
import { makePdf } from '../features/documents/sample-files.ts';
import { createMock, type InProcessMock } from '../in-process/node.ts';
import type { ReadingId } from '../platform/deps.ts';
import { activeReadings } from './active.ts';
import { payloadLayout, retryJitter, shapePayload } from './events.ts';
import { playReadings } from './play.ts';
import { encodeWebhookBody } from '../../spec/runtime/webhook-codec.ts';
import { createStore } from '../platform/store.ts';

type Obj = Record<string, any>;
type Call = { status: number; body: Obj; headers: Headers };
type Api = (method: string, path: string, body?: unknown, keyless?: boolean) => Promise<Call>;

const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

async function apiOf(m: InProcessMock): Promise<Api> {
  const key = m.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  return async (method, path, body, keyless) => {
    const form = body instanceof FormData;
    const res = await m.fetch(`${m.baseUrl}${path}`, {
      method,
      headers: { ...(keyless ? {} : { 'x-api-key': key }), ...(body && !form ? { 'content-type': 'application/json' } : {}) },
      body: form ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Obj;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}

const patient = async (api: Api) => (await api('POST', '/patients', { name: 'Probe' })).body.data as Obj;
const appointment = async (api: Api) => {
  const p = await patient(api);
  return (
    await api('POST', '/appointments', {
      patient_id: p.id,
      start_at: future(),
      duration_minutes: 30,
      appointment_type: 'Visit',
      visit_type: 'Other',
    })
  ).body.data as Obj;
};
function pdfForm(bytes = makePdf(['Probe letter'])): FormData {
  const f = new FormData();
  f.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'Probe.pdf');
  return f;
}
const upload = async (api: Api, bytes?: Uint8Array) => api('POST', `/patients/${(await patient(api)).id}/documents`, pdfForm(bytes));
/** An upload and a new extraction run of it. */
async function extract(api: Api): Promise<Call> {
  const pid = (await patient(api)).id;
  const doc = (await api('POST', `/patients/${pid}/documents`, pdfForm())).body.data;
  return api('POST', `/patients/${pid}/documents/${doc.id}/extract`);
}
function bigPdf(bytes: number): Uint8Array {
  const big = new Uint8Array(bytes);
  big.set(makePdf(['Big']));
  return big;
}
const firstNote = async (api: Api) => (await api('GET', `/notes/${(await api('GET', '/notes?limit=1')).body.data[0].id}`)).body.data as Obj;

/** Per reading, what a request shows of it. */
const probes: Partial<Record<ReadingId, (api: Api) => Promise<unknown>>> = {
  'patient-nameless-accepted': async (api) => (await api('POST', '/patients', {})).status,
  'free-text-trimmed': async (api) => (await api('POST', '/patients', { name: '  Ada  ' })).body.data.name,
  'free-text-bounded': async (api) => (await api('POST', '/patients', { name: 'x'.repeat(300) })).status,
  'contact-forms-checked': async (api) => (await api('POST', '/patients', { name: 'A', email: 'nope', gender: 'x' })).status,
  'contact-normalised': async (api) => {
    const d = (await api('POST', '/patients', { name: 'A', phone: '+1 (202) 555-0143', email: 'Ada@Example.org' })).body.data;
    return [d.phone, d.email];
  },
  'dob-in-the-past': async (api) => (await api('POST', '/patients', { name: 'A', date_of_birth: '2999-01-01' })).status,
  'address-other-fields': async (api) => [
    (await api('POST', '/patients', { name: 'A', address: { line1: '1 Main St' } })).status,
    (await api('POST', '/patients', { name: 'A', address: { street: '1 Main St', zip: '53703' } })).body.data?.address,
  ],
  'mrn-none-omitted': async (api) => 'mrn' in (await api('POST', '/patients', { name: 'A', mrn: '' })).body.data,
  'appointment-types-required': async (api) =>
    (await api('POST', '/appointments', { patient_id: (await patient(api)).id, start_at: future(), duration_minutes: 30 })).status,
  'appointment-in-the-future': async (api) =>
    (await api('POST', '/appointments', { patient_id: (await patient(api)).id, start_at: '2020-01-01T10:00:00Z', duration_minutes: 30 }))
      .status,
  'repeat-rule-checked': async (api) =>
    (
      await api('POST', '/appointments', {
        patient_id: (await patient(api)).id,
        start_at: future(),
        duration_minutes: 30,
        repeat_rule: { frequency: 'weekly', end_date: '2000-01-01' },
      })
    ).status,
  'status-transitions-checked': async (api) => {
    const a = await appointment(api);
    await api('PATCH', `/appointments/${a.id}`, { status: 'CANCELLED' });
    return (await api('PATCH', `/appointments/${a.id}`, { status: 'SCHEDULED' })).status;
  },
  'time-change-together': async (api) =>
    (await api('PATCH', `/appointments/${(await appointment(api)).id}`, { duration_minutes: 40 })).status,
  'document-fields-other-forms': async (api) => (await upload(api)).body.data.file_type,
  'enum-values-upper-case': async (api) => (await api('GET', '/providers?limit=1')).body.data[0].role,
  'codes-as-lists': async (api) => Object.keys((await firstNote(api)).icd10_codes),
  'transcript-clock-times': async (api) => (await firstNote(api)).transcript?.start_time?.length,
  'upload-answers-processing': async (api) => (await upload(api)).body.data.status,
  'query-names-other': async (api) => (await api('GET', '/patients?q=zzz-no-such-patient')).body.data.length,
  'patch-no-reassign': async (api) => {
    const p = await patient(api);
    return (await api('PATCH', `/patients/${p.id}`, { provider_id: p.provider_id })).status;
  },
  'extract-accepted-202': async (api) => (await extract(api)).status,
  'export-other-layout': async (api) => (await api('GET', '/notes/export')).status,
  'extract-data-only': async (api) => Object.keys((await extract(api)).body).sort(),
  'unset-as-null': async (api) => {
    const b = (await extract(api)).body;
    return [b.error, b.details];
  },
  'upload-other-words': async (api) => (await upload(api)).body.message,
  'statuses-other': async (api) => [(await api('PATCH', '/patients')).status, (await api('GET', '/patients/abc')).status],
  'error-texts-other': async (api) => (await api('GET', '/patients/1')).body.error,
  'auth-first': async (api) => [
    (await api('GET', '/no-such-path', undefined, true)).status,
    (await api('DELETE', '/providers', undefined, true)).status,
  ],
  'rate-headers-other-forms': async (api) => Number((await api('GET', '/providers?limit=1')).headers.get('x-ratelimit-reset')) > 1e9,
  'limit-clamped': async (api) => {
    const r = await api('GET', '/patients?limit=80');
    return [r.status, r.body.meta?.limit];
  },
  'empty-list-zero-pages': async (api) => (await api('GET', '/patients?search=zzz-no-such-patient')).body.meta.total_pages,
  'newest-first': async (api) => {
    const made = await patient(api);
    return (await api('GET', '/patients?limit=1')).body.data[0].id === made.id;
  },
  'lookup-meta-one': async (api) => {
    await api('POST', '/patients', { name: 'A', external_id: 'probe-lookup' });
    return (await api('GET', '/patients?external_id=probe-lookup&limit=5')).body.meta.limit;
  },
  'extra-fields': async (api) => {
    const r = await api('GET', '/patients?limit=1');
    return ['request_id' in r.body, r.headers.get('x-request-id') !== null];
  },
  'ten-mib': async (api) => (await upload(api, bigPdf(10_200_000))).status,
  'deprecation-headers': async (api) => (await api('GET', '/providers?limit=1')).headers.get('deprecation') !== null,
};

/** Played elsewhere than in an answer to one request: each has its own test below. */
const ELSEWHERE = new Set([
  'extraction-fast',
  'extraction-slow',
  'regeneration-slow',
  'event-source-other',
  'event-error-other-words',
  'document-url-relative',
  'xml-root-event',
  'retry-jitter',
]);

let kit: Api;
let kitMock: InProcessMock;
beforeAll(async () => {
  kitMock = await createMock({ timeScale: 0.01 });
  kit = await apiOf(kitMock);
});
afterAll(() => kitMock?.close());

describe('every reading the engine plays shows', () => {
  it('has a probe or a test of its own for every reading', () => {
    const played = readingsCatalogue.filter((r) => r.plays === 'engine').map((r) => r.id);
    expect(played.filter((id) => !(id in probes) && !ELSEWHERE.has(id))).toEqual([]);
  });

  it.each(Object.keys(probes) as ReadingId[])('%s answers otherwise than the kit’s reading', async (id) => {
    const m = await createMock({ timeScale: 0.01, readings: [id] });
    try {
      const theirs = await probes[id]!(await apiOf(m));
      const ours = await probes[id]!(kit);
      expect(theirs).not.toEqual(ours);
    } finally {
      await m.close();
    }
  });
});

describe('the readings a mock plays are named', () => {
  it('in docs/mock.md, each with what it does', () => {
    const doc = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
    // The row names the reading and says what the catalogue says (the table is written from spec/readings.yaml).
    const row = (r: (typeof readingsCatalogue)[number]) => `| ${r.says.replace(/\s+/g, ' ').replaceAll('|', '\\|')} |`;
    const missing = readingsCatalogue.filter((r) => r.plays === 'engine' && !doc.includes(`| \`${r.id}\``)).map((r) => r.id);
    const stale = readingsCatalogue.filter((r) => r.plays === 'engine' && !doc.includes(row(r))).map((r) => r.id);
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('in the dashboard and at GET /__mock/readings', async () => {
    const m = await createMock({ readings: ['newest-first', 'extra-fields'] });
    try {
      const page = await (await m.fetch(`${m.controlUrl}/`)).text();
      expect(page).toMatch(
        /<h2 id="h-readings">Readings<\/h2>\s*<ul><li><code>newest-first<\/code>: Lists.*<li><code>extra-fields<\/code>: Objects/,
      );
      const listed = (await (await m.fetch(`${m.controlUrl}/readings`)).json()) as { active: string[] };
      expect(listed.active).toEqual(['newest-first', 'extra-fields']);
      expect(await (await kitMock.fetch(`${kitMock.controlUrl}/`)).text()).toContain("The kit's reading everywhere");
    } finally {
      await m.close();
    }
  });
});

describe('readings played outside one answer', () => {
  const played = (ids: ReadingId[]) => playReadings(activeReadings(ids), createStore({}));
  const payload = {
    event: 'DOCUMENT_STATUS_CHANGED',
    source: 'api',
    error: 'bad scan',
    document_url: 'http://127.0.0.1:4010/ext-api/v1/patients/1/documents',
  };

  it('shapes webhook payloads: source, the failure text, a relative document_url', () => {
    expect(shapePayload(played([]), payload)).toEqual(payload);
    const out = shapePayload(played(['event-source-other', 'event-error-other-words', 'document-url-relative']), payload);
    expect(out).toEqual({
      ...payload,
      source: 'REGENERATE_ENDPOINT',
      error: 'EXTRACTION_FAILED: bad scan',
      document_url: '/ext-api/v1/patients/1/documents',
    });
  });

  it('writes XML deliveries under <event> with null as an empty element', () => {
    const xml = new TextDecoder().decode(encodeWebhookBody({ a: 'x', b: null }, 'XML', payloadLayout(played(['xml-root-event']))).body);
    expect(xml).toMatch(/<event xmlns:xsi="[^"]+"><a>x<\/a><b\/><\/event>$/);
    expect(payloadLayout(played([]))).toBeUndefined();
  });

  it('adds up to 20 % to each retry delay', () => {
    const jitter = retryJitter(played(['retry-jitter']))!;
    const draws = Array.from({ length: 200 }, jitter);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(0.2);
    expect(new Set(draws).size).toBeGreaterThan(100);
    expect(retryJitter(played([]))).toBeUndefined();
  });

  it('refuses a choice it cannot play, naming why', () => {
    expect(() => activeReadings(['no-such-reading'])).toThrow(/unknown reading no-such-reading; the mock plays: .*newest-first/);
    expect(() => activeReadings(['key-prefix-other'])).toThrow(/not observable through the API/);
    expect(() => activeReadings(['extraction-fast', 'extraction-slow'])).toThrow(/same place and cannot be played together/);
    expect(() => activeReadings({ random: 1.5 })).toThrow(/integer seed/);
    expect(activeReadings({ random: 7 }).ids).toEqual(activeReadings({ random: 7 }).ids);
    expect(activeReadings({ random: 7 }).ids).not.toEqual(activeReadings({ random: 8 }).ids);
  });
});
