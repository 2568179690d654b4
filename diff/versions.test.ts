// The repository's own packages: each version, against the release base (newest tag, else the earliest commit with
// spec/openapi.yaml), has moved at least as far as its changes need, and its changelog has an entry for it. A clone
// that lacks the base (shallow CI checkouts) skips with the reason instead of failing.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkVersions } from './versions.ts';

const ROOT = join(import.meta.dirname, '..');

it("each package's version tells the truth against the release base", (ctx) => {
  const check = checkVersions(ROOT);
  if ('skipped' in check) {
    console.warn(check.skipped);
    return ctx.skip();
  }
  const problems = check.verdicts.filter((v) => !v.ok).map((v) => `${v.package}: ${v.problem}`);
  expect(problems, `npm run diff -- ${check.report.base.ref} --check-versions`).toEqual([]);
  expect(check.verdicts.map((v) => v.package)).toEqual(['clinical-records-api', 'clinical-records-mock', 'clinical-records-conformance']);
});
