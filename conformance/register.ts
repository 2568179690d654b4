// The rule register (spec/rules.yaml), read at run time: every check names one rule id and takes its
// wording and provenance from here, so a change to a rule is one edit in the register.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type Provenance = 'documented' | 'assumed';

export interface Rule {
  id: string;
  rule: string;
  provenance: Provenance;
  source?: string;
  spec?: unknown;
  /** api-key | needs-mock-control | not-from-outside */
  testable: string;
  /** Why, for not-from-outside (and whatever else the register says). */
  reason?: string;
}

export const REGISTER_URL = new URL('../spec/rules.yaml', import.meta.url);

/** The register may write `testable` as a plain word, "word: reason", or an object { kind|value, reason }. */
function normaliseTestable(raw: unknown): { testable: string; reason?: string } {
  if (typeof raw === 'string') {
    const m = /^([a-z-]+)\s*(?:[:(—-]\s*(.*?)\)?)?$/.exec(raw.trim());
    return m ? { testable: m[1]!, reason: m[2] || undefined } : { testable: raw.trim() };
  }
  if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    const kind = o.kind ?? o.value ?? o.type ?? Object.keys(o)[0];
    const reason = o.reason ?? (typeof kind === 'string' && typeof o[kind] === 'string' ? o[kind] : undefined);
    return { testable: String(kind), reason: typeof reason === 'string' ? reason : undefined };
  }
  return { testable: 'unknown' };
}

export class Register {
  readonly rules: Rule[];
  private readonly byId: Map<string, Rule>;

  constructor(rules: Rule[]) {
    this.rules = rules;
    this.byId = new Map(rules.map((r) => [r.id, r]));
  }

  static load(url: URL | string = REGISTER_URL): Register {
    let text: string;
    try {
      text = readFileSync(url, 'utf8');
    } catch {
      return new Register([]);
    }
    const parsed = parse(text) as { rules?: Array<Record<string, unknown>> } | Array<Record<string, unknown>> | null;
    const list = Array.isArray(parsed) ? parsed : (parsed?.rules ?? []);
    return new Register(
      list
        .filter((r) => r && typeof r.id === 'string')
        .map((r) => {
          const t = normaliseTestable(r.testable);
          return {
            id: String(r.id),
            rule: String(r.rule ?? ''),
            provenance: r.provenance === 'assumed' ? 'assumed' : 'documented',
            source: typeof r.source === 'string' ? r.source : undefined,
            spec: r.spec,
            testable: t.testable,
            reason: t.reason ?? (typeof r.reason === 'string' ? r.reason : undefined),
          } satisfies Rule;
        }),
    );
  }

  get(id: string): Rule | undefined {
    return this.byId.get(id);
  }

  /** The rule behind a check; a check whose id the register lacks is reported as such, never silently. */
  resolve(id: string): Rule {
    return (
      this.byId.get(id) ?? {
        id,
        rule: `(rule ${id} is not in spec/rules.yaml)`,
        provenance: 'documented',
        testable: 'api-key',
      }
    );
  }
}
