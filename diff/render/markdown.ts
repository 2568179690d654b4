// The Markdown rendering, for a pull-request comment: a table of what each package needs (and, with the version
// check, whether its version says so), then the changes by the largest bump they need, with rule ids and per-audience
// bumps. Long sections fold into <details>; a comment over GitHub's 65,536 characters is refused, so sections are cut
// to fewer rows (saying how many are left out) until it fits.
import { type Audience, AUDIENCES, BUMPS, type Bump, type Change, PACKAGES, type Report } from '../model.ts';
import type { VersionVerdict } from '../versions.ts';
import { sideText } from './console.ts';
import { foldRegister, rulesText, whereText } from './lines.ts';

const TITLES: Record<Exclude<Bump, 'none'>, string> = { major: 'Breaking', minor: 'Minor', patch: 'Patch' };
const LIMIT = 60_000;
const top = (c: Change): Bump => BUMPS[Math.max(...Object.values(c.impacts).map((b) => BUMPS.indexOf(b)))]!;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(changes: Change[], maxRows: number): string[] {
  const audiences = Object.keys(AUDIENCES) as Audience[];
  const rows = [`| Where | Change | Rules | ${audiences.join(' | ')} |`, `|---|---|---|${audiences.map(() => '---').join('|')}|`];
  for (const c of changes.slice(0, maxRows)) {
    const ids = c.source === 'register' ? c.rules.join(', ') : rulesText(c.rules, 6);
    rows.push(`| ${cell(whereText(c))} | ${cell(c.message)} | ${cell(ids)} | ${audiences.map((a) => c.impacts[a]).join(' | ')} |`);
  }
  if (changes.length > maxRows) rows.push('', `…and ${changes.length - maxRows} more: \`npm run diff -- --format json\` lists them all.`);
  return rows;
}

function render(report: Report, verdicts: VersionVerdict[] | undefined, maxRows: number): string {
  const out = [`### Contract diff: \`${sideText(report.base)}\` → \`${sideText(report.head)}\``, ''];
  out.push('| Package | Needs | Version | Verdict |', '|---|---|---|---|');
  for (const pkg of PACKAGES) {
    const v = verdicts?.find((x) => x.package === pkg);
    const verdict = v ? (v.ok ? '✅' : `❌ ${cell(v.problem ?? '')}`) : '';
    out.push(`| ${pkg} | ${report.needs[pkg]} | ${report.base.versions[pkg]} → ${report.head.versions[pkg]} | ${verdict} |`);
  }
  const shown = foldRegister(report.changes);
  for (const bump of ['major', 'minor', 'patch'] as const) {
    const changes = shown.filter((c) => top(c) === bump);
    if (!changes.length) continue;
    const body = table(changes, maxRows);
    out.push('', `#### ${TITLES[bump]} (${changes.length})`, '');
    out.push(...(changes.length > 15 ? ['<details><summary>Show</summary>', '', ...body, '', '</details>'] : body));
  }
  const quiet = shown.filter((c) => top(c) === 'none').length;
  out.push('', `${quiet} changes need no bump. Classified by ${report.engine} and the kit's rules (docs/contract.md).`);
  return `${out.join('\n')}\n`;
}

export function renderMarkdown(report: Report, verdicts?: VersionVerdict[]): string {
  let text = '';
  for (const maxRows of [Number.POSITIVE_INFINITY, 200, 100, 50, 20, 5])
    if ((text = render(report, verdicts, maxRows)).length <= LIMIT) break;
  return text;
}
