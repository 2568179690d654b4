// The rule register (spec/rules.yaml), read at run time: every check names one rule id and takes its
// wording and provenance from here, so a change to a rule is one edit in the register.
import { loadRules, type Rule } from './rules.ts';

export type { Provenance, Rule } from './rules.ts';

export class Register {
  readonly rules: Rule[];
  private readonly byId: Map<string, Rule>;

  constructor(rules: Rule[]) {
    this.rules = rules;
    this.byId = new Map(rules.map((r) => [r.id, r]));
  }

  /** The register file, read strictly: a missing or malformed one throws a RegisterError naming every problem. */
  static load(url?: URL | string): Register {
    return new Register(loadRules(url));
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
        source: '',
        spec: [],
        testable: 'api-key',
        seen: 'exchange',
      }
    );
  }
}
