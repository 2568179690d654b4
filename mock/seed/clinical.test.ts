// The seed's clinical part: deterministic, complete (every extraction status, several note types, a session not
// ready for regeneration, data for both organizations), consistent with what extraction really reports, and loadable.
import { describe, expect, it } from 'vitest';
import { nodeRuntime } from '../runtime/node.ts';
import { documentsFeature } from '../features/documents/feature.ts';
import type { SeedDocument } from '../features/documents/seed.ts';
import { extractText } from '../features/documents/extract-text.ts';
import { sniffFileKind } from '../../spec/runtime/file-types.ts';
import { notesFeature } from '../features/notes/feature.ts';
import type { SeedNote, SeedSession, SeedTemplate } from '../features/notes/seed.ts';
import { patientsFeature } from '../features/patients/feature.ts';
import { providersFeature } from '../features/providers/feature.ts';
import { createHarness } from '../testing/fake-deps.ts';
import { generateSeed } from './generate.ts';

describe('clinical seed', async () => {
  const seed = await generateSeed();
  const [org1, org2] = seed.organizations.map((o) => o.id) as [string, string];
  const docs = seed.documents as SeedDocument[];
  const sessions = seed.sessions as SeedSession[];
  const notes = seed.notes as SeedNote[];
  const templates = seed.templates as SeedTemplate[];

  it('is deterministic', async () => {
    expect(JSON.stringify(await generateSeed())).toBe(JSON.stringify(seed));
  });

  it('has documents in every extraction status in the first organization, and documents in the second', () => {
    const statuses = new Set(docs.filter((d) => d.organization_id === org1).map((d) => d.status));
    expect([...statuses].sort()).toEqual(['completed', 'failed', 'pending', 'processing']);
    expect(docs.some((d) => d.organization_id === org2)).toBe(true);
  });

  it('seeded extraction results match what the extractor reports on the seeded bytes', async () => {
    for (const d of docs.filter((x) => x.status === 'completed' || x.status === 'failed')) {
      const bytes = new Uint8Array(Buffer.from(d.content_base64, 'base64'));
      const out = await extractText(sniffFileKind(bytes)!, bytes);
      if (d.status === 'completed') expect(out, d.filename).toEqual({ ok: true, textLength: d.extracted_text_length });
      else expect(out, d.filename).toEqual({ ok: false, error: d.extraction_error });
    }
  });

  it('has sessions with transcripts and notes of several types, one not ready, one to finalize, in both organizations', () => {
    const types = new Set(
      notes.filter((n) => n.organization_id === org1).map((n) => templates.find((t) => t.id === (n.template_id ?? ''))!.note_type),
    );
    expect(types.size).toBeGreaterThanOrEqual(3);
    expect(sessions.every((s) => s.transcript.text && s.transcript.summary)).toBe(true);
    const noteless = sessions.filter((s) => s.organization_id === org1 && !notes.some((n) => n.session_id === s.id));
    expect(noteless.some((s) => s.transcript.status !== 'completed')).toBe(true);
    expect(noteless.some((s) => s.transcript.status === 'completed')).toBe(true);
    expect(notes.some((n) => n.organization_id === org2)).toBe(true);
  });

  it('loads through the modules without a complaint', async () => {
    const h = createHarness([providersFeature, patientsFeature, documentsFeature(nodeRuntime.documents), notesFeature]);
    await h.seed(seed);
    const res = await h.api(`/patients/${docs[0]!.patient_id}/documents`, { org: org1 });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    h.close();
  });
});
