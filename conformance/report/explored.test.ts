// What the reports say of --explore (failures marked as found by exploration, with the replay command; the HTML
// table of operations × checks), and `merge`: shard reports joined, bad input a clear exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeMain } from './merge-command.ts';
import type { CheckResult, RunReport } from '../run/model.ts';
import { runReport } from '../testing/run-report.ts';
import { renderConsole } from './console.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';

const explored = (operation: string, outcome: 'passed' | 'failed', cases: number, replay?: string): CheckResult => ({
  name: 'ignored_auth',
  area: 'ERR',
  ruleId: 'ERR-002',
  rule: 'A missing, invalid, expired or revoked key answers 401 with {error}.',
  provenance: 'documented',
  outcome,
  assertions: cases,
  ms: 0,
  explored: { operation, cases },
  failures: replay
    ? [
        {
          ruleId: 'ERR-002',
          message: `GET /providers: no X-API-Key (auth case; replay: --explore --replay ${replay})`,
          expected: '401 for a request without X-API-Key',
          actual: '200 {"data":[]}',
          curl: "curl -sS -i -X GET 'http://127.0.0.1:1/ext-api/v1/providers'",
          operation,
          status: 200,
          explored: { replay, kind: 'auth', label: 'GET /providers: no X-API-Key', steps: 1, generatedSteps: 1, rechecked: true, alike: 0 },
        },
      ]
    : [],
});

const withExploration = (results: CheckResult[], shard?: string, cases = 3): RunReport => ({
  ...runReport(results),
  shard,
  exploration: {
    seed: 4,
    budget: 100,
    cases,
    requests: cases * 2,
    shrinkRequests: 1,
    incomplete: 0,
    errors: [],
    seconds: 1,
    kinds: { auth: cases },
  },
});

describe('reports of an exploration', () => {
  const report = withExploration([explored('GET /patients', 'passed', 1), explored('GET /providers', 'failed', 2, '4-9')]);

  it('console: the failure is marked as found by exploration, with its replay command, and what was explored', () => {
    const text = renderConsole(report);
    expect(text).toContain('✗ ignored_auth (explore: GET /providers)');
    expect(text).toContain('found by exploration (auth case, shrunk from 1 to 1 request(s), re-checked); replay id 4-9');
    expect(text).toContain(
      "replay:    npm run conformance -- --url 'http://127.0.0.1:1/ext-api/v1' --profile documented --explore --replay 4-9",
    );
    expect(text).toContain('explored: seed 4, 3 cases (3 auth), 6 requests + 1 shrinking/re-checking');
  });

  it('HTML: operations × checks with the cases sent, the failed cell marked; JUnit: one testcase per check and operation', () => {
    const html = renderHtml(report);
    expect(html).toContain('<section id="explored"><h2>Explored</h2>');
    expect(html).toMatch(/<td>GET \/providers<\/td><td class="failed"[^>]*>✗ 2<\/td>/);
    expect(html).toMatch(/<td>GET \/patients<\/td><td class="passed"[^>]*>1<\/td>/);
    expect(html).toContain('<span class="tag">explored</span>');
    // The cause links to the failed result of the check, not to its first (passing) one.
    expect(html).toContain('href="#check-ignored_auth-explore-GET-providers-">ignored_auth</a>');
    const junit = renderJunit(report);
    expect(junit).toContain('name="ignored_auth (explore: GET /providers) [ERR-002]"');
    expect(junit).toContain('name="ignored_auth (explore: GET /patients) [ERR-002]"');
  });
});

describe('merge <report.json …>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crc-merge-'));
  const file = (name: string, r: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof r === 'string' ? r : JSON.stringify(r));
    return p;
  };
  const io = () => {
    const lines: string[] = [];
    return { lines, out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) };
  };

  it('writes one report from two shards: worst outcome, cases summed, the plan’s first failing case kept', () => {
    const a = file('a.json', withExploration([explored('GET /providers', 'failed', 2, '4-9-0')], '1/2'));
    const b = file(
      'b.json',
      withExploration([explored('GET /providers', 'failed', 1, '4-4'), explored('GET /patients', 'passed', 1)], '2/2'),
    );
    const out = join(dir, 'merged');
    const { lines, out: o, err } = io();
    expect(mergeMain([a, b, '--reporter', 'json', '--out', out], o, err)).toBe(1);
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const providers = merged.results.find((r) => r.explored?.operation === 'GET /providers')!;
    expect(providers).toMatchObject({ outcome: 'failed', explored: { cases: 3 } });
    expect(providers.failures.map((f) => [f.explored?.replay, f.explored?.alike])).toEqual([['4-4', 1]]);
    expect(merged.exploration).toMatchObject({ cases: 6, requests: 12 });
    expect(lines).toEqual([]);
  });

  it('refuses what is not a shard of one run, with exit 2 and the reason', () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /name the report\.json files/],
      [[file('bad.json', '{not json')], /cannot read .*bad\.json as JSON/],
      [[file('other.json', { hello: 1 })], /not a report\.json of clinical-records-conformance/],
      [[file('s1.json', withExploration([], '1/2')), file('s1b.json', withExploration([], '1/2'))], /shard 1\/2 is given twice/],
      [
        [file('x.json', withExploration([], '1/2')), file('y.json', { ...withExploration([], '2/2'), exploration: undefined })],
        /explored differently/,
      ],
      [['--reporter', 'pdf', 'a.json'], /--reporter: unknown "pdf"/],
    ];
    for (const [args, why] of cases) {
      const { lines, out, err } = io();
      expect(mergeMain(args, out, err)).toBe(2);
      expect(lines.join('\n')).toMatch(why);
    }
  });
});
