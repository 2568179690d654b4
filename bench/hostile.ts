// The suite against each hostile mode of conformance/testing/hostile-server.ts, one CLI process per row (node --import
// tsx conformance/cli.ts, the key in $CLINICAL_RECORDS_KEY): mode, exit code, seconds, peak RSS of the suite's process,
// where the key (or 12 characters of it in a row) showed up (must be nowhere), and how many output lines carry a raw
// terminal escape. Rows: every mode against the bare hostile server; a redirect met after the first requests (the
// mock answers those and the control API, with --mock); and a 600 MB POST to the receiver of a --mock run of the
// webhook checks. Targets: exit 1 or 2, never a crash; peak RSS under 500 MB; usage errors within 10 s.
// Usage: npx tsx bench/hostile.ts
import { MockControl } from '../conformance/target/mock-control.ts';
import { startTestMock } from '../conformance/testing/check-file.ts';
import { HOSTILE_MODES } from '../conformance/testing/hostile-server.ts';
import { hostileKey, runHostile, runReceiverFlood, type CliRun, type HostileResult } from '../conformance/testing/hostile-run.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: counting raw escapes (ESC, 8-bit CSI and OSC) is the point
const ESCAPE = /[\x1b\x9b\x9d]/;
const rawEscapes = (r: CliRun) =>
  [r.stdout, r.stderr, ...r.files.values()]
    .join('\n')
    .split('\n')
    .filter((l) => ESCAPE.test(l)).length;
/** Exit 2: the start of its message; a redirect: what reached the second origin. */
const noteOf = (r: HostileResult) =>
  r.exit === 2
    ? r.stderr
        .trim()
        .split('\n')
        .at(-1)!
        .replace(/^clinical-records-conformance: /, '')
        .slice(0, 100)
    : r.label.startsWith('redirect')
      ? `second origin: ${r.seen.targetRequests} requests, ${r.seen.keys.length} keys`
      : '';
const row = (cells: Array<string | number>) => console.log(`| ${cells.join(' | ')} |`);

const mock = await startTestMock();
try {
  // The mock's keys, its full-access one first: the one $CLINICAL_RECORDS_KEY carries into the --mock runs.
  const listed = await new MockControl(mock.url, 5000).keys();
  const star = (k: (typeof listed)[number]) => k.state === 'active' && k.scopes.includes('*');
  const mockKeys = [...listed.filter(star), ...listed.filter((k) => !star(k))].map((k) => k.key);
  row(['mode', 'exit', 'seconds', 'peak RSS (MB)', 'key seen', 'raw escape lines', 'note']);
  row(['---', '---', '---', '---', '---', '---', '---']);
  const key = hostileKey();
  /** One table row for a run of the suite against a mode. */
  const report = (label: string, r: Awaited<ReturnType<typeof runHostile>>) =>
    row([
      label,
      r.exit ?? `killed (${r.signal})`,
      r.seconds.toFixed(1),
      r.peakRssMb,
      r.keySeen.join(', ') || 'none',
      rawEscapes(r),
      noteOf(r),
    ]);
  for (const mode of HOSTILE_MODES) report(mode, await runHostile({ label: mode, mode }, [key]));
  const origin = new URL(mock.url).origin;
  for (const mode of ['redirect', 'huge', 'endless', 'silent', 'escapes', 'echo-key'] as const) {
    const r = await runHostile({ label: `${mode} after the probes`, mode, args: ['--mock'], upstream: origin, spareApi: 2 }, mockKeys);
    report(`${mode} after the probes (--mock)`, r);
  }
  const f = await runReceiverFlood(mock.url, mockKeys[0]!);
  const answered = `receiver answered ${f.post.status ?? f.post.error} after ${(f.post.sent / 1024 / 1024).toFixed(1)} MB sent`;
  row([
    '600 MB POST to the receiver (--mock --only evt)',
    f.exit ?? 'killed',
    f.seconds.toFixed(1),
    f.peakRssMb,
    '-',
    rawEscapes(f),
    answered,
  ]);
} finally {
  await mock.close();
}
