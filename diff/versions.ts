// Versions that tell the truth: each package's version against the release base must have moved at least as far as
// its changes need. The base is the one given, else the newest tag reachable from HEAD, else the earliest commit with
// spec/openapi.yaml (the repository has no release tags yet; a tag, once made, takes over). A base this clone lacks
// (a shallow CI checkout) skips the check with a message saying so: it is not a failure.
import { compare } from './compare.ts';
import { firstSpecCommit, folderTree, gitTree, InputError, isShallow, lastTag } from './git.ts';
import { type Bump, bumpRank, type PackageName, PACKAGES, type Report } from './model.ts';
import { hasEntry } from './changelog.ts';

function parseVersion(v: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v);
  if (!m) throw new InputError(`not a semver version: ${JSON.stringify(v)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** How far a version moved: major, minor, patch, or none (also when it went back, which `ok` then refuses). */
function movedBy(from: string, to: string): Bump {
  const [a, b] = [parseVersion(from), parseVersion(to)];
  for (const [i, bump] of (['major', 'minor', 'patch'] as const).entries()) {
    if (b[i]! > a[i]!) return bump;
    if (b[i]! < a[i]!) return 'none';
  }
  return 'none';
}

export interface VersionVerdict {
  package: PackageName;
  base: string;
  head: string;
  needs: Bump;
  moved: Bump;
  changelog: boolean;
  ok: boolean;
  problem?: string;
}

function judgeVersions(report: Report, changelogText: (p: PackageName) => string | undefined): VersionVerdict[] {
  return PACKAGES.map((pkg) => {
    const [base, head, needs] = [report.base.versions[pkg], report.head.versions[pkg], report.needs[pkg]];
    const moved = movedBy(base, head);
    const changelog = moved === 'none' || hasEntry(changelogText(pkg), head);
    let problem: string | undefined;
    if (bumpRank(moved) < bumpRank(needs))
      problem =
        needs === 'major' && moved !== 'major'
          ? `breaking changes under an unchanged major version (${base} → ${head}); it needs a major bump`
          : `its changes need a ${needs} bump; ${base} → ${head} is ${moved === 'none' ? 'no bump' : `a ${moved} bump`}`;
    else if (!changelog) problem = `packages/${pkg}.CHANGELOG.md has no entry for ${head} (npm run diff -- ${report.base.ref} --changelog)`;
    return { package: pkg, base, head, needs, moved, changelog, ok: !problem, ...(problem ? { problem } : {}) };
  });
}

export type VersionCheck = { skipped: string } | { report: Report; verdicts: VersionVerdict[] };

/** The release base: the ref given, the newest tag, or the earliest commit with the contract. */
export function releaseBase(root: string, given?: string): { ref: string; how: string } | undefined {
  if (given) return { ref: given, how: 'given' };
  const tag = lastTag(root);
  if (tag) return { ref: tag, how: 'newest tag' };
  const first = firstSpecCommit(root);
  return first ? { ref: first, how: 'no tag: earliest commit with spec/openapi.yaml' } : undefined;
}

/** The working tree's package versions against the release base. */
export function checkVersions(root: string, given?: string): VersionCheck {
  const base = releaseBase(root, given);
  if (!base) return { skipped: 'version check skipped: no tag and no commit with spec/openapi.yaml in this history' };
  let baseTree: ReturnType<typeof gitTree>;
  try {
    baseTree = gitTree(root, base.ref);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { skipped: `version check skipped: base ${base.ref} (${base.how}) is not in this clone's history. ${e.message}` };
  }
  if (!given && !lastTag(root) && isShallow(root))
    return { skipped: 'version check skipped: a shallow clone without tags cannot see the earliest contract (git fetch --unshallow)' };
  const head = folderTree(root);
  const report = compare(baseTree, head);
  return { report, verdicts: judgeVersions(report, (p) => head.read(`packages/${p}.CHANGELOG.md`)) };
}

/** What `npm run pack` says before packing: lines to print, and whether it must refuse. */
export function packGate(root: string): { refuse: boolean; lines: string[] } {
  const check = checkVersions(root);
  if ('skipped' in check) return { refuse: false, lines: [check.skipped] };
  const bad = check.verdicts.filter((v) => !v.ok);
  if (!bad.length) return { refuse: false, lines: [] };
  const why = bad.map((v) => `${v.package}: ${v.problem}`);
  return { refuse: true, lines: [...why, `refused; see npm run diff -- ${check.report.base.ref} (docs/contract.md)`] };
}
