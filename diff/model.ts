// The vocabulary of `npm run diff`: how much a change asks of each audience, who the audiences are, and which of the
// three packages speaks for each. One change of the contract or of the rule register is one `Change`.

export const BUMPS = ['none', 'patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

export const bumpRank = (b: Bump): number => BUMPS.indexOf(b);
const maxBump = (...bumps: Bump[]): Bump => bumps.reduce<Bump>((a, b) => (bumpRank(b) > bumpRank(a) ? b : a), 'none');
export const minBump = (a: Bump, b: Bump): Bump => (bumpRank(a) <= bumpRank(b) ? a : b);

/**
 * Who a change reaches, each through the package that serves them: code built on the generated types and the client
 * (clinical-records-api), apps tested against the mock (clinical-records-mock), and servers the suite judges
 * (clinical-records-conformance).
 */
export const AUDIENCES = {
  clients: 'clinical-records-api',
  'mock users': 'clinical-records-mock',
  implementations: 'clinical-records-conformance',
} as const;
export type Audience = keyof typeof AUDIENCES;
export type PackageName = (typeof AUDIENCES)[Audience];
export const PACKAGES = Object.values(AUDIENCES) as PackageName[];

export type Impacts = Record<Audience, Bump>;
export const noImpact = (): Impacts => ({ clients: 'none', 'mock users': 'none', implementations: 'none' });

export interface Change {
  /** 'contract' for spec/openapi.yaml, 'register' for spec/rules.yaml. */
  source: 'contract' | 'register';
  /** added | removed | modified (the engine's kind), or the register's wording (reworded, provenance, ...). */
  kind: string;
  /** One line saying what changed. */
  message: string;
  /**
   * Where: the operation's path and method when the change is under one, the JSON pointer (spec or register), and every
   * operation that reaches the changed node (a shared schema's change is reported once, under the first of them).
   */
  where: { path?: string; method?: string; pointer: string; operations?: string[] };
  /** The rule ids whose contract nodes the change touches (or the rule itself, for a register change). */
  rules: string[];
  /** The bump each audience needs; 'none' for an audience the change does not reach. */
  impacts: Impacts;
  /** Why the impacts are what they are, in a few words (the engine's rule id, direction, assumed). */
  why: string;
}

export interface Side {
  /** The ref as given ('WORKTREE' for the working tree), and the commit it names when it is one. */
  ref: string;
  commit?: string;
  versions: Record<PackageName, string>;
}

export interface Report {
  base: Side;
  head: Side;
  /** The structural engine and its version, so a report says what classified it. */
  engine: string;
  changes: Change[];
  /** The bump each package needs: the largest of its audience's impacts. */
  needs: Record<PackageName, Bump>;
}

export function packageNeeds(changes: Change[]): Record<PackageName, Bump> {
  const needs = {} as Record<PackageName, Bump>;
  for (const [audience, pkg] of Object.entries(AUDIENCES) as Array<[Audience, PackageName]>)
    needs[pkg] = maxBump(...changes.map((c) => c.impacts[audience]));
  return needs;
}
