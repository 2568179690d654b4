// Data several checks share, fetched or created once per run: providers, the run's own patient, a note.
// What the run creates carries the run prefix in external_id and is deleted at the end (cleanup.ts).
import type { Http, KeyRef } from './http.ts';
import { SkipCheck } from './model.ts';

type Obj = Record<string, unknown>;

export class Fixtures {
  private readonly memo = new Map<string, Promise<unknown>>();
  private counter = 0;

  constructor(
    private readonly http: Http,
    private readonly key: KeyRef,
    readonly prefix: string,
    private readonly readOnly: boolean,
  ) {}

  externalId(label: string): string {
    return `${this.prefix}${label}-${++this.counter}`;
  }

  /** One result per run for `name`, shared by the checks that need it (e.g. one oversized upload). */
  shared<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.once(`shared:${name}`, fn);
  }

  private once<T>(name: string, fn: () => Promise<T>): Promise<T> {
    let p = this.memo.get(name) as Promise<T> | undefined;
    if (!p) {
      p = fn();
      this.memo.set(name, p);
    }
    return p;
  }

  private async list(path: string, query: Obj = {}): Promise<Obj[]> {
    const ex = await this.http.send('fixtures', { method: 'GET', path, key: this.key, query: query as Record<string, string> });
    const data = (ex.response.json as { data?: unknown } | undefined)?.data;
    if (ex.response.status !== 200 || !Array.isArray(data))
      throw new SkipCheck(`fixture GET ${path} answered ${ex.response.status}, so the data this check needs is unknown`);
    return data as Obj[];
  }

  providers(): Promise<Obj[]> {
    return this.once('providers', () => this.list('/providers'));
  }

  notes(): Promise<Obj[]> {
    return this.once('notes', () => this.list('/notes'));
  }

  async firstNote(): Promise<Obj> {
    const notes = await this.notes();
    if (!notes[0]) throw new SkipCheck('the organization has no notes to read');
    return notes[0];
  }

  /** A patient this run created (name only), or in --read-only mode the first listed patient. */
  patient(): Promise<Obj> {
    return this.once('patient', async () => {
      if (this.readOnly) {
        const first = (await this.list('/patients'))[0];
        if (!first) throw new SkipCheck('the organization has no patients to read');
        return first;
      }
      return this.createPatient('fixture');
    });
  }

  async createPatient(label: string, extra: Obj = {}): Promise<Obj> {
    if (this.readOnly) throw new SkipCheck('--read-only: no writes');
    const body = { name: `Conformance ${label}`, external_id: this.externalId(label), ...extra };
    const ex = await this.http.send('fixtures', { method: 'POST', path: '/patients', key: this.key, json: body });
    const data = (ex.response.json as { data?: Obj } | undefined)?.data;
    if (ex.response.status !== 201 || !data || typeof data.id !== 'string')
      throw new SkipCheck(`could not create a patient to work on: POST /patients answered ${ex.response.status}`);
    return data;
  }
}

/** A one-page PDF whose text the extraction can read (offsets computed, so the xref table is exact). */
export function tinyPdf(text = 'Conformance suite test document'): Uint8Array {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = `BT /F1 12 Tf 20 100 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  objs[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
