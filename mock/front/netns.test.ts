// The boundary from a real non-loopback peer: the test makes its own network namespace joined to this one by a veth
// pair (root only; skipped otherwise), binds the mock to the host end's address, and attacks it with curl from the
// namespace: dot segments (--path-as-is), %2e%2e, absolute-form (--request-target), wrong keys. No traffic leaves
// the machine: the namespace has no other link.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockMode, type RunningMock } from '../server.ts';

const run = promisify(execFile);
const id = process.pid % 10_000;
const NS = `mockfront${id}`;
const VETH = [`mkfa${id}`, `mkfb${id}`] as const;
const NET = `10.213.${id % 250}`;
const [HOST_IP, NS_IP] = [`${NET}.1`, `${NET}.2`];

/** Root on Linux with ip and curl, allowed to make a namespace (a probe one, removed at once). */
function canMakeNamespaces(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('which', ['curl'], { stdio: 'ignore' });
    execFileSync('ip', ['netns', 'add', `${NS}probe`], { stdio: 'ignore' });
    execFileSync('ip', ['netns', 'del', `${NS}probe`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = canMakeNamespaces();

function teardown() {
  for (const args of [
    ['link', 'del', VETH[0]],
    ['netns', 'del', NS],
  ])
    try {
      execFileSync('ip', args, { stdio: 'ignore' });
    } catch {
      /* already gone */
    }
}

/** curl from inside the namespace; returns status and body. */
async function curlFromNamespace(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run('ip', ['netns', 'exec', NS, 'curl', '-s', '-m', '10', '-w', '\n%{http_code}', ...args], { timeout: 15_000 });
  const at = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

describe.skipIf(!available)(`from another address (network namespace ${NS}, ${NS_IP} -> ${HOST_IP})`, () => {
  beforeAll(() => {
    const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'ignore' });
    teardown(); // leftovers of an earlier run killed before its afterAll
    ip('netns', 'add', NS);
    ip('link', 'add', VETH[0], 'type', 'veth', 'peer', 'name', VETH[1]);
    ip('link', 'set', VETH[1], 'netns', NS);
    ip('addr', 'add', `${HOST_IP}/30`, 'dev', VETH[0]);
    ip('link', 'set', VETH[0], 'up');
    ip('netns', 'exec', NS, 'ip', 'addr', 'add', `${NS_IP}/30`, 'dev', VETH[1]);
    ip('netns', 'exec', NS, 'ip', 'link', 'set', VETH[1], 'up');
  });
  afterAll(teardown);

  describe.each<MockMode>(['default', 'engine-only', 'static'])('%s mode', (mode) => {
    let m: RunningMock;
    let origin: string;
    beforeAll(async () => {
      m = await startMock({
        port: 0,
        host: HOST_IP,
        mode,
        strict: mode === 'default',
        quiet: true,
        rateLimit: { requests: 3, seconds: 60 },
      });
      origin = new URL(m.url).origin;
    });
    afterAll(async () => {
      await m?.close();
    });

    it('never reaches the control API: plain, dot segments, %2e%2e, absolute-form', async () => {
      const attempts = [
        [`${origin}/__mock/keys`],
        ['--path-as-is', `${origin}/ext-api/v1/../../__mock/keys`],
        ['--path-as-is', `${origin}/ext-api/v1/%2e%2e/%2e%2e/__mock/keys`],
        ['--request-target', `${origin}/__mock/keys`, `${origin}/`],
        ['--path-as-is', '-X', 'POST', `${origin}/ext-api/v1/../../__mock/reset`],
      ];
      for (const args of attempts) {
        const r = await curlFromNamespace(args);
        expect(r.status, args.join(' ')).toBe(403);
        expect(r.body).not.toContain('crk_');
      }
    });

    it.skipIf(mode === 'static')('throttles wrong keys per client address (429 after the limit)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await curlFromNamespace(['-H', `X-API-Key: crk_guess_${i}`, `${origin}/ext-api/v1/providers`])).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });
  });
});
