// The terminal rendering: what each package needs, then the changes that need a bump, breaking first, each with the
// bump it needs per audience; changes that need none are counted, not listed.
import { type Audience, AUDIENCES, BUMPS, type Change, PACKAGES, type Report } from '../model.ts';
import type { VersionVerdict } from '../versions.ts';
import { groupedLines } from './lines.ts';

const SHORT: Record<Audience, string> = { clients: 'api', 'mock users': 'mock', implementations: 'suite' };
const rank = (c: Change) => Math.max(...Object.values(c.impacts).map((b) => BUMPS.indexOf(b)));
/** Worst first: by the largest bump, then by the sum over audiences. */
const weight = (c: Change) => rank(c) * 10 + Object.values(c.impacts).reduce((n, b) => n + BUMPS.indexOf(b), 0);

export function sideText(r: Report['base']): string {
  return `${r.ref}${r.commit && r.commit !== r.ref ? ` (${r.commit.slice(0, 7)})` : ''}`;
}

export function renderConsole(report: Report, verdicts?: VersionVerdict[]): string {
  const out = [`Contract diff ${sideText(report.base)} → ${sideText(report.head)}, structural engine: ${report.engine}`, ''];
  for (const pkg of PACKAGES) {
    const v = verdicts?.find((x) => x.package === pkg);
    const status = v ? (v.ok ? '  ok' : `  ✗ ${v.problem}`) : '';
    out.push(
      `  ${pkg.padEnd(30)} needs ${report.needs[pkg].padEnd(5)} ${report.base.versions[pkg]} → ${report.head.versions[pkg]}${status}`,
    );
  }
  const listed = report.changes.filter((c) => rank(c) > 0).sort((a, b) => weight(b) - weight(a));
  // One block per combination of bumps, worst first; the register's added and removed rules fold into one line each.
  const blocks = new Map<string, Change[]>();
  for (const c of listed) {
    const key = (Object.keys(AUDIENCES) as Audience[]).map((a) => `${SHORT[a]} ${c.impacts[a]}`).join(', ');
    blocks.set(key, [...(blocks.get(key) ?? []), c]);
  }
  for (const [key, changes] of blocks) out.push('', `${key}:`, ...groupedLines(changes, 5).map((l) => `  ${l}`));
  const quiet = report.changes.length - listed.length;
  out.push('', `${report.changes.length} changes: ${listed.length} need a bump, ${quiet} describe only (no bump).`);
  return `${out.join('\n')}\n`;
}
