// The replay command a run prints for a failure --explore found works when pasted into a shell: it carries what the
// case was planned with (--mock, whose keys shape the cases; the keys' variables, required), so a stateful case,
// shrunk, is rebuilt and fails again (exit 1). Run with --mock, then with a key and no --mock; with the variable unset
// the shell stops naming it and nothing is sent. (The curl lines and the keys.env line: conformance/report/curl.test.ts.)
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { MockControl } from '../target/mock-control.ts';
import type { RunReport } from '../run/model.ts';
import { exploreDefects } from '../testing/defects-explore.ts';
import { type Ran, runProcess } from '../testing/run-process.ts';
import { startSwappableProxy } from '../testing/single-defect.ts';
import { useTestMock } from '../testing/check-file.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { mock } = useTestMock();
const DEFECT = exploreDefects.find((d) => d.defect === 'a deleted patient still readable')!;

/**
 * Pastes `line` into bash at the repository's root, without our CLINICAL_RECORDS_* variables unless given. `npm run
 * conformance --` there runs the CLI from source (the shell function below), so no build of dist/ is needed.
 */
function paste(line: string, env: Record<string, string> = {}): Promise<Ran> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLINICAL_RECORDS_')));
  const npm = `npm() { [ "$1 $2 $3" = 'run conformance --' ] || { echo "not the suite: npm $*" >&2; return 99; }; shift 3; node --import tsx conformance/cli.ts "$@"; }`;
  return runProcess('bash', ['-c', `${npm}\n${line}`], { cwd: ROOT, env: { ...clean, ...env }, timeout: 60_000 });
}

describe('a printed --replay line, pasted into a shell', { timeout: 120_000 }, () => {
  let proxy: Awaited<ReturnType<typeof startSwappableProxy>>;
  let key = '';
  let sent = 0;

  beforeAll(async () => {
    proxy = await startSwappableProxy(new URL(mock().url).origin);
    key = (await new MockControl(mock().url, 5000).keys()).find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
    const breaks = DEFECT.breaks(key);
    proxy.plant({ ...breaks, request: (req) => void (req.url.startsWith('/__mock') || sent++, breaks.request?.(req)) });
  }, 60_000);
  afterAll(() => proxy?.close());

  /** A run with --explore; the printed replay line of the defect's failure, and the JSON report. */
  async function explored(flags: string[]): Promise<{ line: string; report: RunReport }> {
    const out = mkdtempSync(join(tmpdir(), 'crc-replay-'));
    const lines: string[] = [];
    const argv = ['--url', `${proxy.origin}/ext-api/v1`, ...flags, '--explore', '--only', 'explore', '--seed', '1'];
    const code = await main([...argv, '--explore-budget', '150', '--reporter', 'console,json', '--out', out], lines.push.bind(lines));
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const f = report.results.find((r) => r.name === DEFECT.check && DEFECT.operation.test(r.explored?.operation ?? ''))!.failures[0]!;
    expect(f.explored!.steps).toBeGreaterThan(1); // a stateful case: create, delete, then the read that still answers
    const line = lines
      .join('\n')
      .split('\n')
      .find((l) => l.includes(`--replay ${f.explored!.replay}`) && l.includes('npm run conformance'))!
      .replace(/^\s*replay:\s*/, '');
    return { line, report };
  }

  it('with --mock: the line carries --mock and, pasted as is, fails again (exit 1)', async () => {
    const { line } = await explored(['--mock']);
    expect(line).toMatch(/^npm run conformance -- --url '[^']+' --mock --profile documented --explore --replay \d+-\d+-/);
    const ran = await paste(line);
    expect(ran.stderr).not.toMatch(/usage|required|no candidate/i);
    expect(ran.code, ran.stdout + ran.stderr).toBe(1);
    expect(ran.stdout).toContain(`✗ ${DEFECT.check} (explore: `);
  });

  it('with a key: the line requires its variable; set, it fails again; unset, the shell stops naming it, nothing sent', async () => {
    process.env.CLINICAL_RECORDS_KEY = key;
    let line: string;
    try {
      ({ line } = await explored([]));
    } finally {
      delete process.env.CLINICAL_RECORDS_KEY;
    }
    expect(line).toMatch(
      /^CLINICAL_RECORDS_KEY="\$\{CLINICAL_RECORDS_KEY:\?set CLINICAL_RECORDS_KEY: a key with full access \(\*\)\}" npm run/,
    );
    expect(line).not.toContain(key);
    const ran = await paste(line, { CLINICAL_RECORDS_KEY: key });
    expect(ran.code, ran.stdout + ran.stderr).toBe(1);
    expect(ran.stdout).toContain(`✗ ${DEFECT.check} (explore: `);

    const before = sent;
    const unset = await paste(line);
    expect(unset.code).not.toBe(0);
    expect(unset.stderr).toContain('CLINICAL_RECORDS_KEY: set CLINICAL_RECORDS_KEY: a key with full access (*)');
    expect(sent).toBe(before);
  });
});
