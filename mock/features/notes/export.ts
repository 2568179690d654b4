// GET /notes/export: every note of the organization, streamed page by page in JSON, NDJSON or CSV.
import { loadBundle } from '../../../spec/runtime/bundle.ts';
import type { JsonObject } from '../../../spec/runtime/json-pointer.ts';
import type { Collection } from '../../platform/deps.ts';
import { FIELDS, type NoteRow } from './rows.ts';
import { toExport } from './views.ts';

export type ExportFormat = 'json' | 'ndjson' | 'csv';

/** Media types from the spec's exportNotes 200 response, matched to the format names. */
export const MEDIA_TYPES: Record<ExportFormat, string> = (() => {
  const paths = loadBundle().paths as JsonObject;
  const content = Object.keys(
    ((((paths['/notes/export'] as JsonObject).get as JsonObject).responses as JsonObject)['200'] as JsonObject).content as JsonObject,
  );
  const find = (test: (t: string) => boolean, format: string) => {
    const t = content.find(test);
    if (!t) throw new Error(`spec: exportNotes has no media type for ${format}`);
    return t;
  };
  return {
    json: find((t) => t === 'application/json', 'json'),
    ndjson: find((t) => t.includes('ndjson'), 'ndjson'),
    csv: find((t) => t.includes('csv'), 'csv'),
  };
})();

/** RFC 4180: a cell with a comma, quote, CR or LF is quoted, quotes doubled; arrays and objects as JSON; null empty. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

const PAGE = 200;

/** Streams the export without holding every note: one store page at a time, as the consumer pulls. */
export function exportStream(notes: Collection<NoteRow>, org: string, format: ExportFormat): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let offset = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let out = '';
      if (!started) {
        started = true;
        if (format === 'json') out += '{"data":[';
        if (format === 'csv') out += csvRow(FIELDS.export);
      }
      const page = notes.page(org, offset, PAGE);
      page.forEach((row, i) => {
        const note = toExport(row);
        if (format === 'json') out += (offset + i > 0 ? ',' : '') + JSON.stringify(note);
        else if (format === 'ndjson') out += `${JSON.stringify(note)}\n`;
        else out += csvRow(FIELDS.export.map((f) => (note as Record<string, unknown>)[f]));
      });
      offset += page.length;
      if (page.length < PAGE) {
        if (format === 'json') out += ']}';
        controller.enqueue(enc.encode(out));
        controller.close();
      } else controller.enqueue(enc.encode(out));
    },
  });
}
