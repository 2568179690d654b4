// Document files under --state, checked at start (issue 32): a file cut short, one removed and one changed in place
// each mark their document failed with the reason, printed once, and are never served (410 with the reason; the
// extract endpoint refuses, naming it); an untouched one is served whole. The seed's documents are written under
// --state on the first start, each with its digest.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startMock } from '../../server.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-stored-file-'));
const state = join(dir, 'state.jsonl');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TRUNCATED = '50dbb490-b07a-4267-adb4-e1d0bb7fdd56'; // referral-letter.pdf, completed
const MISSING = '97b60be8-2cdf-43ee-9f80-dde51acbc0ba'; // discharge-summary.docx, completed
const CHANGED = 'fb03754a-ed24-4d35-85a9-a5a910d035a3'; // insurance-card.png, completed
const INTACT = '1735949b-98a0-4c1d-89f7-3348d2526e84'; // growth-chart.pdf, another organization
const PATIENT = '3563043618421525443';
const blob = (id: string) => join(`${state}.blobs`, id);

describe('document files under --state', () => {
  it('a truncated, a missing and a changed file: each document failed with the reason, its file never served', async () => {
    const first = await startMock({ port: 0, mode: 'engine-only', state, quiet: true });
    const sizes = Object.fromEntries(
      ((await (await fetch(`${first.controlUrl}/documents`)).json()).data as Array<{ id: string; file_size: number }>).map((d) => [
        d.id,
        d.file_size,
      ]),
    );
    await first.close();
    truncateSync(blob(TRUNCATED), Math.floor(sizes[TRUNCATED]! / 2));
    rmSync(blob(MISSING));
    const changed = readFileSync(blob(CHANGED));
    changed.writeUInt8(changed.readUInt8(changed.length - 1) ^ 0xff, changed.length - 1);
    writeFileSync(blob(CHANGED), changed);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const m = await startMock({ port: 0, mode: 'engine-only', state, quiet: true });
    try {
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines).toHaveLength(3);
      expect(lines.find((l) => l.includes(TRUNCATED))).toMatch(
        new RegExp(
          `referral-letter\\.pdf.*marked failed: The stored file is damaged: ${Math.floor(sizes[TRUNCATED]! / 2)} of the ${sizes[TRUNCATED]} bytes`,
        ),
      );
      expect(lines.find((l) => l.includes(MISSING))).toMatch(/marked failed: The stored file is missing/);
      expect(lines.find((l) => l.includes(CHANGED))).toMatch(/marked failed: The stored file is damaged: its SHA-256 differs/);

      const docs = (await (await fetch(`${m.controlUrl}/documents`)).json()).data as Array<Record<string, unknown>>;
      const byId = (id: string) => docs.find((d) => d.id === id)!;
      for (const id of [TRUNCATED, MISSING, CHANGED]) {
        expect(byId(id)).toMatchObject({
          status: 'failed',
          has_extracted_text: false,
          extraction_error: expect.stringMatching(/^The stored file is/),
        });
        const file = await fetch(`${m.controlUrl}/documents/${id}/file`);
        expect(file.status).toBe(410);
        expect((await file.json()).error).toBe(byId(id).extraction_error);
      }
      const key = m.keys.find((k) => k.organization_id === byId(TRUNCATED).organization_id && k.scopes.includes('*'))!.key;
      const extract = await fetch(`${m.url}/patients/${PATIENT}/documents/${TRUNCATED}/extract`, {
        method: 'POST',
        headers: { 'x-api-key': key },
      });
      expect(extract.status).toBe(503);
      expect((await extract.json()).details).toMatch(/The stored file is damaged/);

      const intact = await fetch(`${m.controlUrl}/documents/${INTACT}/file`);
      expect(intact.status).toBe(200);
      expect((await intact.arrayBuffer()).byteLength).toBe(sizes[INTACT]);
    } finally {
      warn.mockRestore();
      await m.close();
    }
  });
});
