// `npm run dredd` against each mode of conformance/testing/hostile-server.ts, one CLI process tree per row (node
// --import tsx dredd/cli.ts and the Dredd process it starts; the key in $CLINICAL_RECORDS_KEY, or with --mock read
// from the mock): mode, exit code, seconds, peak RSS of the tree (the sum of each process's high-water mark), where
// the key (or 12 characters of its secret in a row) showed up — console, a report file, the redirect target — which
// must be nowhere, and a note. Rows: every mode from the first request; the misbehaving modes after the mock has
// answered the first 20 requests (the run is under way when it meets them); the same with --mock and no key.
// --timeout is Dredd's default (10 s) unless --timeout-ms says otherwise. Targets: exit 1 (2 when the target never
// answers its first request), a verdict line, peak RSS under 500 MB, the key nowhere.
// Usage: npx tsx bench/dredd-hostile.ts [--timeout-ms <ms>]
import { HOSTILE_MODES, type HostileMode } from '../conformance/testing/hostile-server.ts';
import { type HostileRun, runDreddAgainst } from '../dredd/testing/hostile-run.ts';
import { startMock } from '../mock/server.ts';
import { parseFlags } from './flags.ts';

const USAGE = 'Usage: npx tsx bench/dredd-hostile.ts [--timeout-ms <ms>]';
let flags: { 'timeout-ms': number };
try {
  flags = parseFlags(process.argv.slice(2), { 'timeout-ms': { fallback: 0, min: 0, whole: true } });
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}

const count = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;
// biome-ignore lint/suspicious/noControlCharactersInRegex: counting raw control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function note(r: HostileRun): string {
  const verdict = /^dredd: verdict: (.*)$/m.exec(r.output)?.[1] ?? (r.code === 2 ? r.output.trim().split('\n').at(-1) : 'NO VERDICT');
  const raw = count([r.output, ...Object.values(r.files)].join('\n'), RAW);
  const extra: Record<HostileMode, string> = {
    redirect: `redirect target: ${r.seen.targetRequests} requests, ${r.seen.keys.length} keys`,
    huge: `${count(r.output, /larger than 10 MB/)} answers refused at the bound`,
    endless: `${count(r.output, /larger than 10 MB/)} answers refused at the bound`,
    silent: /^not sent: .*$/m.exec(r.output)?.[0] ?? '',
    escapes: `${raw} lines with a raw control character`,
    'echo-key': `${r.seen.echoed} answers echoed the key`,
    'not-found': '',
    html: '',
    'rate-limited': '',
  };
  return [verdict, extra[r.mode]].filter(Boolean).join('; ');
}

const row = (cells: Array<string | number>) => console.log(`| ${cells.join(' | ')} |`);

const mock = await startMock({ port: 0, host: '127.0.0.1', strict: true, quiet: true, rateLimit: { requests: 100_000, seconds: 60 } });
try {
  const key = mock.keys.find((k) => k.state === 'active' && k.scopes.includes('*'))!.key;
  const upstream = new URL(mock.url).origin;
  const timeoutMs = flags['timeout-ms'] || undefined;
  const misbehaving: HostileMode[] = ['redirect', 'huge', 'endless', 'silent', 'escapes', 'echo-key'];
  const runs: Array<{ label: string; mode: HostileMode; spare: number; keyFromMock?: boolean }> = [
    ...HOSTILE_MODES.map((mode) => ({ label: `${mode} from the first request`, mode, spare: 0 })),
    ...misbehaving.map((mode) => ({ label: `${mode} after 20 requests`, mode, spare: 20 })),
    ...misbehaving.map((mode) => ({ label: `${mode} after 20 requests, --mock, no --key`, mode, spare: 20, keyFromMock: true })),
  ];
  console.log(`dredd against a hostile server; --timeout ${timeoutMs ?? 'default (10000)'} ms\n`);
  row(['mode', 'exit', 'seconds', 'peak RSS (MB)', 'key seen', 'note']);
  row(['---', '---', '---', '---', '---', '---']);
  for (const run of runs) {
    const r = await runDreddAgainst(run.mode, { upstream, key, spare: run.spare, keyFromMock: run.keyFromMock, timeoutMs });
    row([run.label, r.code ?? 'killed', r.seconds.toFixed(1), r.peakMb.toFixed(0), r.keySeenIn.join(', ') || 'none', note(r)]);
  }
} finally {
  await mock.close();
}
