// The README's mock steps as written (issue 42, item 4): every `sh` block of "The mock: a frontend developer's first
// five minutes" is read from README.md, in order; the `crk_<label>_…` keys are replaced by the banner's keys and port
// 4010 by the port the mock printed; each line runs through sh with the real curl (a wrapper on PATH only adds
// `-sS -w` to print each answer's status after its body), and each line's outcome comment (`# 201; it stays`,
// `# 200: the 4 armed; 200: cleared`) is checked: one status per curl answer, and every phrase through OUTCOMES below.
// A phrase no check knows fails the test, so the README cannot promise what this test does not prove.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;
const CLI = join(ROOT, 'mock', 'cli.ts');
const STATUS_MARK = '@status ';

/** One command of a README block: the shell line and its outcome comment. */
interface Step {
  line: string;
  outcome: string;
}

/** The `sh` blocks of the README's mock section, as steps: continuation lines joined, comment-only lines folded in. */
function readmeMockSteps(readme: string): Step[] {
  const start = readme.indexOf("## The mock: a frontend developer's first five minutes");
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end);
  const steps: Step[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let pending = '';
    for (const raw of block[1]!.split('\n')) {
      const text = raw.trim();
      if (!text) continue;
      if (text.startsWith('#')) {
        steps[steps.length - 1]!.outcome += ` ${text.slice(1).trim()}`;
        continue;
      }
      if (text.endsWith('\\')) {
        pending += `${text.slice(0, -1).trim()} `;
        continue;
      }
      const full = pending + text;
      pending = '';
      const hash = full.search(/\s#\s/);
      steps.push({ line: (hash < 0 ? full : full.slice(0, hash)).trim(), outcome: hash < 0 ? '' : full.slice(hash + 2).trim() });
    }
  }
  return steps;
}

/** An answer of one curl: its status and body (parsed when JSON). */
interface Answer {
  status: number;
  body: any;
}

interface Ctx {
  api: string;
  control: string;
  allKey: string;
  keyCount: number;
}

const json = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers });
  return { status: r.status, body: (await r.json()) as any };
};

/** What each phrase of an outcome comment promises, checked on the line's answer (or on the mock after it). */
const OUTCOMES: Array<[RegExp, (a: Answer, m: RegExpMatchArray, ctx: Ctx) => Promise<void> | void]> = [
  [/^page (\d+) of (\d+)$/, (a, m) => expect(a.body.meta).toMatchObject({ page: Number(m[1]), total_pages: Number(m[2]) })],
  [
    /^it stays$/,
    async (_a, _m, ctx) => {
      const found = await json(`${ctx.api}/patients?external_id=my-1`, { 'x-api-key': ctx.allKey });
      expect(found.body.data).toEqual([expect.objectContaining({ external_id: 'my-1', first_name: 'Ada' })]);
    },
  ],
  [/^scope (\S+)$/, (a, m) => expect(a.body.error).toContain(m[1])],
  [/^(Missing API key|API key expired)$/, (a, m) => expect(a.body.error).toBe(m[1])],
  [/^details names (\S+)$/, (a, m) => expect(Object.keys(a.body.details ?? {})).toContain(m[1])],
  [/^existing names (\S+)$/, (a, m) => expect(a.body.existing).toMatchObject({ external_id: m[1], id: expect.any(String) })],
  [/^next (\d+) requests: 429$/, (a, m) => expect(a.body.data).toMatchObject({ kind: 'rate-limited', count: Number(m[1]) })],
  [/^next extraction fails$/, (a) => expect(a.body.data).toMatchObject({ kind: 'extraction-fails', count: 1 })],
  [/^only for requests with the header X-Mock-Fault-Scope: (\S+)$/, (a, m) => expect(a.body.data).toMatchObject({ scope: m[1] })],
  [/^the (\d+) armed$/, (a, m) => expect(a.body.data).toHaveLength(Number(m[1]))],
  [/^cleared$/, async (_a, _m, ctx) => expect((await json(`${ctx.control}/faults`)).body.data).toEqual([])],
  [
    /^every key and its state$/,
    (a, _m, ctx) => {
      expect(a.body.data).toHaveLength(ctx.keyCount);
      for (const k of a.body.data) expect(['active', 'expired', 'revoked']).toContain(k.state);
    },
  ],
  [
    /^the last (\d+) (\d)xx, newest first$/,
    (a, m) => {
      const ids = a.body.data.map((e: { id: number }) => e.id);
      expect(ids).toHaveLength(Number(m[1]));
      expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
      for (const e of a.body.data) expect(String(e.status)[0]).toBe(m[2]);
    },
  ],
  [
    /^back to the seed$/,
    async (_a, _m, ctx) => {
      expect((await json(`${ctx.api}/patients?external_id=my-1`, { 'x-api-key': ctx.allKey })).status).toBe(404);
      expect((await json(`${ctx.control}/faults`)).body.data).toEqual([]);
    },
  ],
];

/** The answers one line printed through the curl wrapper. */
function answersOf(stdout: string): Answer[] {
  const answers: Answer[] = [];
  let rest = stdout;
  for (let at = rest.indexOf(STATUS_MARK); at >= 0; at = rest.indexOf(STATUS_MARK)) {
    const text = rest.slice(0, at).trim();
    const eol = rest.indexOf('\n', at);
    const status = Number(rest.slice(at + STATUS_MARK.length, eol < 0 ? undefined : eol));
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    answers.push({ status, body });
    rest = eol < 0 ? '' : rest.slice(eol + 1);
  }
  return answers;
}

/** Checks one line's outcome comment: one status per answer, each phrase by OUTCOMES. */
async function checkOutcome(step: Step, answers: Answer[], ctx: Ctx): Promise<void> {
  const parts = step.outcome.split(';').map((p) => p.trim());
  const statuses = parts.map((p) => /^(\d{3})\b/.exec(p)?.[1]).filter((s) => s !== undefined);
  expect(
    answers.map((a) => String(a.status)),
    `${step.line}\n# ${step.outcome}`,
  ).toEqual(statuses);
  let answer = 0;
  for (const part of parts) {
    const status = /^(\d{3})\b:?\s*/.exec(part);
    if (status) answer++;
    const phrase = status ? part.slice(status[0].length) : part;
    if (!phrase) continue;
    const check = OUTCOMES.find(([re]) => re.test(phrase));
    if (!check) throw new Error(`README outcome this test does not check: "${phrase}" (${step.line})`);
    await check[1](answers[Math.max(0, answer - 1)]!, phrase.match(check[0])!, ctx);
  }
}

/** The README's key placeholder `crk_<label>_…` as the banner's key of that prefix. */
function withKeys(line: string, keys: string[]): string {
  return line.replace(/crk_[a-z0-9_]*?_…/g, (placeholder) => {
    const prefix = placeholder.slice(0, -1);
    const key = keys.find((k) => k.startsWith(prefix) && /^[0-9a-f]+$/.test(k.slice(prefix.length)));
    if (!key) throw new Error(`no banner key for ${placeholder}`);
    return key;
  });
}

const curlPath = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();

describe.skipIf(curlPath === undefined)(`the README's mock steps, as written${curlPath ? '' : ' (skipped: no curl)'}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'readme-steps-'));
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    writeFileSync(join(dir, 'curl'), `#!/bin/sh\nexec ${curlPath} -sS -w '\\n${STATUS_MARK}%{http_code}\\n' "$@"\n`);
    chmodSync(join(dir, 'curl'), 0o755);
    // node itself with tsx as a loader (`npm run mock` runs the same CLI, built): kill reaches the mock itself.
    child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const until = Date.now() + 30_000;
    while (!/try: curl/.test(output)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`no banner: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the steps: curl lines only, each with an outcome, numbered 1 to 7 without a repeat', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const steps = readmeMockSteps(readme);
    expect(steps.length).toBeGreaterThanOrEqual(15);
    for (const s of steps) {
      expect(s.line, s.line).toMatch(/^curl /);
      expect(s.outcome, s.line).toMatch(/^\d{3}\b/);
    }
    const section = readme.slice(readme.indexOf("## The mock: a frontend developer's"), readme.indexOf('## The conformance suite'));
    expect([...section.matchAll(/^(\d+)\. \*\*/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs every curl line in order and gets each documented outcome, the journal query included', async () => {
    const api = /API\s+(http:\/\/\S+)/.exec(output)![1]!;
    const port = new URL(api).port;
    const keys = [...output.matchAll(/^\s+(crk_[a-z0-9_]+)\s/gm)].map((m) => m[1]!);
    const ctx: Ctx = {
      api,
      control: `http://127.0.0.1:${port}/__mock`,
      allKey: keys.find((k) => k.startsWith('crk_all_'))!,
      keyCount: keys.length,
    };
    const env = { ...process.env, PATH: `${dir}:${process.env.PATH}` };
    for (const step of readmeMockSteps(readFileSync(join(ROOT, 'README.md'), 'utf8'))) {
      const line = withKeys(step.line, keys).replaceAll(':4010', `:${port}`);
      const stdout = execFileSync('sh', ['-c', line], { env, encoding: 'utf8', timeout: 15_000 });
      await checkOutcome(step, answersOf(stdout), ctx);
    }
  });
});
