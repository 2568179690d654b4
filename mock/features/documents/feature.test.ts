// The documents feature against the in-memory harness: upload, list, lookup, extract, delete, the state machine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../runtime/node.ts';
import { createHarness, waitFor, type Harness } from '../../testing/fake-deps.ts';
import { documentsFeature, type DocumentsFeature } from './feature.ts';
import { MESSAGES } from './messages.ts';
import { MAX_UPLOAD_BYTES, documentsOf, queueOf, ENGINE_ORG } from './rows.ts';
import { makeCorruptPdf, makeDocx, makeDocxBomb, makeJpeg, makePdf, makePng, makeZip } from './sample-files.ts';
import { FAULT_ERROR, processingMs } from './extraction.ts';
import type { components } from '../../../generated/types.ts';

type Doc = components['schemas']['Document'];
const P1 = '1234567890123456789';
const P2 = '9876543210987654321'; // a patient of org-2

let h: Harness;
beforeEach(() => {
  h = createHarness([documentsFeature(nodeRuntime.documents)]);
  h.deps.store.collection<{ id: string; name: string }>('patients').insert('org-1', { id: P1, name: 'Ada' });
  h.deps.store.collection<{ id: string; name: string }>('patients').insert('org-2', { id: P2, name: 'Bob' });
});
afterEach(() => h.close());

function form(file?: { bytes: Uint8Array; name: string }, fields: Record<string, string> = {}) {
  const f = new FormData();
  if (file) f.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}
const upload = (body: FormData | BodyInit, patient = P1, init: RequestInit & { org?: string } = {}) =>
  h.api(`/patients/${patient}/documents`, { method: 'POST', body, ...init });
const docsOf = async (patient = P1, query = '') =>
  (await (await h.api(`/patients/${patient}/documents${query}`)).json()) as { data: Doc[] };
const statusOf = async (id: string) => (await docsOf()).data.find((d) => d.id === id);

describe('upload', () => {
  it('DOC: stores a PDF, answers 201 pending with the extraction-started wording, then completes with its text length', async () => {
    const res = await upload(form({ bytes: makePdf(['Referral letter', 'Patient: Ada']), name: 'referral.pdf' }, { external_id: 'ext-1' }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: Doc; message: string };
    expect(body.message).toBe(MESSAGES.uploadedQueued);
    expect(body.data).toMatchObject({
      filename: 'referral.pdf',
      file_type: 'application/pdf',
      status: 'pending',
      has_extracted_text: false,
      external_id: 'ext-1',
    });
    expect(h.deps.validator.schema('DocumentUploadResult')(body).ok).toBe(true);
    const done = await waitFor(async () => {
      const d = await statusOf(body.data.id);
      return d?.status === 'completed' && d;
    });
    expect(done).toMatchObject({
      has_extracted_text: true,
      extracted_text_length: 'Referral letter Patient: Ada'.length,
      extraction_error: null,
    });
    expect(done.extracted_date).toBeTruthy();
    expect(JSON.stringify(done)).not.toContain('Referral');
    expect(h.events).toEqual([
      { type: 'document', org: 'org-1', doc: { id: body.data.id, patient_id: P1, external_id: 'ext-1', status: 'completed', error: null } },
    ]);
  });

  it('passes through processing on its way', async () => {
    const res = await upload(form({ bytes: makeDocx(['Discharge summary']), name: 'd.docx' }));
    const { data } = (await res.json()) as { data: Doc };
    const seen = new Set<string>();
    await waitFor(async () => {
      const d = await statusOf(data.id);
      if (d) seen.add(d.status);
      return d?.status === 'completed';
    });
    expect(seen.has('processing')).toBe(true);
    expect((await statusOf(data.id))?.extracted_text_length).toBe('Discharge summary'.length);
  });

  it('recognises DOCX, PNG and JPEG by content, whatever the name or declared type', async () => {
    for (const [bytes, type] of [
      [makeDocx(['x']), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [makePng(2, 2), 'image/png'],
      [makeJpeg(), 'image/jpeg'],
    ] as const) {
      const f = new FormData();
      f.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/plain' }), 'misleading.txt');
      const res = await upload(f);
      expect(res.status).toBe(201);
      expect(((await res.json()) as { data: Doc }).data.file_type).toBe(type);
    }
  });

  it('images complete with the documented simulated text length', async () => {
    const png = makePng(4, 4);
    const { data } = (await (await upload(form({ bytes: png, name: 'scan.png' }))).json()) as { data: Doc };
    const d = await waitFor(async () => {
      const x = await statusOf(data.id);
      return x?.status === 'completed' && x;
    });
    expect(d.extracted_text_length).toBe(Math.max(40, Math.floor(png.length / 40)));
  });

  it('DOC: refuses content that is not PDF, JPEG, PNG or DOCX with 415 (a plain zip is not a DOCX)', async () => {
    for (const bytes of [new TextEncoder().encode('hello'), makeZipWithout()]) {
      const res = await upload(form({ bytes, name: 'x.pdf' }));
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: expect.stringContaining('Unsupported file type') });
    }
    expect(documentsOf(h.deps).all('org-1')).toHaveLength(0);
  });

  it('DOC: refuses more than x-max-bytes with 413 and keeps nothing', async () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(new TextEncoder().encode('%PDF-1.4\n'));
    const res = await upload(form({ bytes: big, name: 'big.pdf' }));
    expect(res.status).toBe(413);
    expect(documentsOf(h.deps).all('org-1')).toHaveLength(0);
  });

  it('accepts exactly x-max-bytes', async () => {
    const max = new Uint8Array(MAX_UPLOAD_BYTES);
    max.set(new TextEncoder().encode('%PDF-1.4\n'));
    const res = await upload(form({ bytes: max, name: 'max.pdf' }), P1);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: Doc }).data.file_size).toBe(MAX_UPLOAD_BYTES);
  });

  it('refuses a declared Content-Length far past the limit before reading', async () => {
    const res = await h.app.request(`http://127.0.0.1/ext-api/v1/patients/${P1}/documents`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(MAX_UPLOAD_BYTES * 2) },
      body: new ReadableStream({ pull: () => new Promise(() => {}) }), // never ends: must not be awaited
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('DOC: 400 names unknown form fields, a missing file, a bad external_id and a mismatching patient_id', async () => {
    const cases: Array<[FormData, Record<string, unknown>]> = [
      [form({ bytes: makePdf(['a']), name: 'a.pdf' }, { colour: 'red' }), { colour: 'unknown field' }],
      [form(undefined, { external_id: 'x' }), { file: expect.any(String) }],
      [form({ bytes: makePdf(['a']), name: 'a.pdf' }, { external_id: 'e'.repeat(256) }), { external_id: expect.any(String) }],
      [form({ bytes: makePdf(['a']), name: 'a.pdf' }, { patient_id: '42' }), { patient_id: expect.any(String) }],
      [form({ bytes: new Uint8Array(0), name: 'empty.pdf' }), { file: 'is empty' }],
    ];
    for (const [body, details] of cases) {
      const res = await upload(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String), details: expect.objectContaining(details) });
    }
    const both = form({ bytes: makePdf(['a']), name: 'a.pdf' });
    both.append('file', new Blob([makePdf(['b']) as Uint8Array<ArrayBuffer>]), 'b.pdf');
    expect((await upload(both)).status).toBe(400);
  });

  it('415 for a JSON body, 400 for a broken multipart body', async () => {
    const json = await upload(JSON.stringify({ file: 'x' }), P1, { headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);
    const broken = await upload('--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4', P1, {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(broken.status).toBe(400);
  });

  it('DOC: 409 on a duplicate external_id, the first document kept', async () => {
    const first = (await (await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }, { external_id: 'dup' }))).json()) as { data: Doc };
    const res = await upload(form({ bytes: makePdf(['b']), name: 'b.pdf' }, { external_id: 'dup' }));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'external_id already in use', existing: { id: first.data.id, external_id: 'dup' } });
    expect(documentsOf(h.deps).all('org-1')).toHaveLength(1);
  });

  it('404 for a patient of another organization, exactly as for a missing one', async () => {
    const other = await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }), P2);
    const missing = await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }), '111');
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual(await missing.json());
    expect((await h.api(`/patients/${P2}/documents`)).status).toBe(404);
  });

  it('DOC: under extraction-not-queued the upload succeeds with the plain wording and stays pending, no event', async () => {
    h.faults.set('extraction-not-queued');
    const res = await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }));
    const body = (await res.json()) as { data: Doc; message: string };
    expect(res.status).toBe(201);
    expect(body.message).toBe(MESSAGES.uploaded);
    expect(body.message).not.toMatch(/extraction/i);
    await new Promise((r) => setTimeout(r, processingMs('pdf', 1 << 20) * h.clock.timeScale * 2));
    expect((await statusOf(body.data.id))?.status).toBe('pending');
    expect(h.events).toHaveLength(0);
    expect(h.clock.pending()).toBe(0);
    // The extract endpoint then runs it.
    const ex = await h.api(`/patients/${P1}/documents/${body.data.id}/extract`, { method: 'POST' });
    expect(ex.status).toBe(200);
    await waitFor(async () => (await statusOf(body.data.id))?.status === 'completed');
  });
});

describe('extraction failures and re-runs', () => {
  it('DOC: a corrupt PDF ends failed with extraction_error and a failed event', async () => {
    const { data } = (await (await upload(form({ bytes: makeCorruptPdf(), name: 'bad.pdf' }, { external_id: 'bad' }))).json()) as {
      data: Doc;
    };
    const d = await waitFor(async () => {
      const x = await statusOf(data.id);
      return x?.status === 'failed' && x;
    });
    expect(d.extraction_error).toMatch(/Text extraction failed/);
    expect(d.has_extracted_text).toBe(false);
    expect(h.events[0]).toMatchObject({ doc: { status: 'failed', error: d.extraction_error, external_id: 'bad' } });
  });

  it('DOC: a DOCX whose XML inflates to 200 MiB ends failed saying why, with the failed event', async () => {
    const { data } = (await (await upload(form({ bytes: makeDocxBomb(200), name: 'bomb.docx' }, { external_id: 'bomb' }))).json()) as {
      data: Doc;
    };
    const d = await waitFor(async () => {
      const x = await statusOf(data.id);
      return x?.status === 'failed' && x;
    });
    expect(d.extraction_error).toBe("Text extraction refused: the document's XML inflates past 8 MiB (stopped in word/document.xml)");
    expect(h.events).toEqual([
      {
        type: 'document',
        org: 'org-1',
        doc: { id: data.id, patient_id: P1, external_id: 'bomb', status: 'failed', error: d.extraction_error },
      },
    ]);
  });

  it('DOC: the extraction-fails fault fails a valid file; the extract endpoint then reaches completed and emits again', async () => {
    h.faults.set('extraction-fails');
    const { data } = (await (await upload(form({ bytes: makePdf(['fine']), name: 'a.pdf' }))).json()) as { data: Doc };
    await waitFor(async () => (await statusOf(data.id))?.status === 'failed');
    expect((await statusOf(data.id))?.extraction_error).toBe(FAULT_ERROR);
    const res = await h.api(`/patients/${P1}/documents/${data.id}/extract`, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Doc; success: boolean; message: string };
    expect(body).toMatchObject({ success: true, message: MESSAGES.extractStarted, data: { status: 'pending', extraction_error: null } });
    expect(h.deps.validator.schema('ExtractResult')(body).ok).toBe(true);
    await waitFor(async () => (await statusOf(data.id))?.status === 'completed');
    expect(h.events.map((e) => e.type === 'document' && e.doc.status)).toEqual(['failed', 'completed']);
  });

  it('DOC: extract re-runs a completed document', async () => {
    const { data } = (await (await upload(form({ bytes: makePdf(['x']), name: 'a.pdf' }))).json()) as { data: Doc };
    await waitFor(async () => (await statusOf(data.id))?.status === 'completed');
    expect((await h.api(`/patients/${P1}/documents/${data.id}/extract`, { method: 'POST' })).status).toBe(200);
    await waitFor(() => h.events.length === 2);
  });

  it('a stale run never overwrites a newer one: two extracts in a row give one terminal event', async () => {
    h.faults.set('extraction-not-queued');
    const { data } = (await (await upload(form({ bytes: makePdf(['x']), name: 'a.pdf' }))).json()) as { data: Doc };
    const row = documentsOf(h.deps).get('org-1', data.id)!;
    const ex = h.feature<DocumentsFeature>('documents').extractor;
    ex.start('org-1', row);
    ex.start('org-1', documentsOf(h.deps).get('org-1', data.id)!);
    await waitFor(async () => (await statusOf(data.id))?.status === 'completed');
    await new Promise((r) => setTimeout(r, processingMs('pdf', 0) * h.clock.timeScale * 2));
    expect(h.events).toHaveLength(1);
    expect(documentsOf(h.deps).get('org-1', data.id)!.run).toBe(2);
  });

  it('extract: 404 for an unknown document or one of another patient; 503 when it cannot start', async () => {
    h.deps.store.collection<{ id: string; name: string }>('patients').insert('org-1', { id: '555', name: 'Other' });
    const { data } = (await (await upload(form({ bytes: makePdf(['x']), name: 'a.pdf' }))).json()) as { data: Doc };
    expect((await h.api(`/patients/${P1}/documents/0b8e6f1c-5d2a-4c3b-9e7f-1a2b3c4d5e6f/extract`, { method: 'POST' })).status).toBe(404);
    expect((await h.api(`/patients/555/documents/${data.id}/extract`, { method: 'POST' })).status).toBe(404);
    h.faults.set('extraction-not-queued');
    const res = await h.api(`/patients/${P1}/documents/${data.id}/extract`, { method: 'POST' });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: expect.any(String), details: expect.any(String) });
    expect(h.deps.validator.schema('ExtractResult')(body).ok).toBe(true);
    h.deps.store.blobs.delete(data.id);
    expect((await h.api(`/patients/${P1}/documents/${data.id}/extract`, { method: 'POST' })).status).toBe(503);
  });
});

describe('list, lookup, delete', () => {
  it('DOC: lists without meta; external_id lookup answers one item or 404', async () => {
    await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }, { external_id: 'a' }));
    await upload(form({ bytes: makePng(), name: 'b.png' }));
    const all = (await docsOf()) as Record<string, unknown> & { data: Doc[] };
    expect(all.data).toHaveLength(2);
    expect(Object.keys(all)).toEqual(['data']);
    const one = await docsOf(P1, '?external_id=a');
    expect(one.data.map((d) => d.filename)).toEqual(['a.pdf']);
    expect((await h.api(`/patients/${P1}/documents?external_id=zzz`)).status).toBe(404);
    expect((await h.api(`/patients/${P1}/documents?external_id=`)).status).toBe(400);
  });

  it('DOC: DELETE answers {success:true}, then 404; the bytes and any run in flight go with it', async () => {
    const { data } = (await (await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }))).json()) as { data: Doc };
    const del = await h.api(`/patients/${P1}/documents/${data.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ success: true });
    expect((await h.api(`/patients/${P1}/documents/${data.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await h.api(`/patients/${P1}/documents/${data.id}/extract`, { method: 'POST' })).status).toBe(404);
    expect(h.deps.store.blobs.get(data.id)).toBeUndefined();
    expect(queueOf(h.deps).all(ENGINE_ORG)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.events).toHaveLength(0);
  });

  it('public_url serves the stored bytes through the control API', async () => {
    const bytes = makePng();
    const { data } = (await (await upload(form({ bytes, name: 'p.png' }))).json()) as { data: Doc };
    const res = await h.app.request(new URL(data.public_url!).pathname);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });
});

describe('resume', () => {
  it('re-queues documents that were queued or processing', async () => {
    const { data } = (await (await upload(form({ bytes: makePdf(['a']), name: 'a.pdf' }))).json()) as { data: Doc };
    h.clock.close(); // the "process" stops: timers gone, row left pending and queued
    expect((await statusOf(data.id))?.status).toBe('pending');
    h.feature('documents').resume!();
    await waitFor(async () => (await statusOf(data.id))?.status === 'completed');
  });
});

/** A valid zip that is not a Word document (no word/document.xml). */
function makeZipWithout(): Uint8Array {
  return makeZip([{ name: 'notes.txt', data: new TextEncoder().encode('hello') }]);
}
