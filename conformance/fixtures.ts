// Data several checks share, fetched or created once per run: providers, the run's own patient, a note.
// What the run creates carries the run prefix in external_id and is deleted at the end (cleanup.ts).
import type { Http, KeyRef } from './http.ts';
import { minimalPdf } from './pdf.ts';
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

/** A one-page PDF whose text the extraction can read. */
export const tinyPdf = (text = 'Conformance suite test document'): Uint8Array => minimalPdf([text]);
