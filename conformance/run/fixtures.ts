// Data several checks share, fetched or created once per run: providers, the run's own patient, a note.
// What the run creates carries the run prefix in external_id and is deleted at the end (cleanup.ts).
import type { Http, KeyRef } from '../target/http.ts';
import { minimalPdf } from '../data/pdf.ts';
import { BlockedCheck, SkipCheck } from './model.ts';

type Obj = Record<string, unknown>;

/** The rules whose checks judge the setup steps other checks rely on: a blocked check names them. */
export const SETUP_RULES = {
  patient: 'PAT-021',
  appointment: 'APT-016',
  upload: 'DOC-022',
  providers: 'PRV-005',
  notes: 'NOTE-014',
  patients: 'PAT-019',
} as const;

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

  /** A list the checks read from: any 2xx with a `data` array; else they are blocked on `ruleId`'s check. */
  private async list(path: string, ruleId: string): Promise<Obj[]> {
    const ex = await this.http.send('fixtures', { method: 'GET', path, key: this.key });
    const data = (ex.response.json as { data?: unknown } | undefined)?.data;
    if (ex.response.status < 200 || ex.response.status > 299 || !Array.isArray(data))
      throw new BlockedCheck(`the list GET ${path} (it answered ${describe(ex.response)})`, ruleId);
    return data as Obj[];
  }

  providers(): Promise<Obj[]> {
    return this.once('providers', () => this.list('/providers', SETUP_RULES.providers));
  }

  notes(): Promise<Obj[]> {
    return this.once('notes', () => this.list('/notes', SETUP_RULES.notes));
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
        const first = (await this.list('/patients', SETUP_RULES.patients))[0];
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
    return createdResource(ex.response, 'a patient to work on (POST /patients)', SETUP_RULES.patient);
  }
}

/** "500 <html>…" — a response in a few words, for a blocked check's reason. */
function describe(res: { status: number; text: string }): string {
  return `${res.status} ${res.text.slice(0, 120) || '(empty body)'}`;
}

/**
 * The resource a setup step created: any 2xx whose `data` carries an id, read whatever its JSON type (a number is
 * taken as its digits when it is exact); anything else blocks the check, naming `ruleId` (whose check judges the step).
 */
export function createdResource(res: { status: number; text: string; json?: unknown }, what: string, ruleId: string): Obj & { id: string } {
  const data = (res.json as { data?: unknown } | undefined)?.data as Obj | undefined;
  const id = data && typeof data === 'object' ? idText(data.id) : undefined;
  if (res.status < 200 || res.status > 299 || !data || id === undefined)
    throw new BlockedCheck(`${what} (it answered ${describe(res)})`, ruleId);
  return { ...data, id };
}

/** An id as text: a string as is, an integer number when JSON kept it exact; undefined otherwise. */
export function idText(v: unknown): string | undefined {
  if (typeof v === 'string' && v) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return undefined;
}

/** A one-page PDF whose text the extraction can read. */
export const tinyPdf = (text = 'Conformance suite test document'): Uint8Array => minimalPdf([text]);
