// Headless Chromium for tests that look at a page as a browser renders it: the DOM after parsing (--dump-dom) and a
// screenshot. One fresh profile per call, no network beyond what the page asks for, bounded in time. Test-only.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags every launch carries: headless, no sandbox (containers, root), no GPU, no background traffic of its own. */
const LAUNCH_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why Chromium cannot be used here, or undefined when it can. */
function chromiumMissing(): string | undefined {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return undefined;
  } catch {
    return `no executable Chromium at ${CHROMIUM} (install the Debian package chromium, or set CHROMIUM_PATH)`;
  }
}

/**
 * For a test's describe: in CI (CI=true) a missing Chromium is an error, elsewhere a skip with the reason.
 * Returns the reason to skip, or undefined to run.
 */
export function chromiumSkipReason(): string | undefined {
  const missing = chromiumMissing();
  if (missing && process.env.CI === 'true') throw new Error(`CI=true and ${missing}`);
  return missing;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Chromium with the launch flags, a fresh --user-data-dir and `args`; killed after `timeoutMs`. */
export function runChromium(args: string[], timeoutMs = 30_000): Promise<RunResult> {
  const profile = mkdtempSync(join(tmpdir(), 'crc-chromium-'));
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(CHROMIUM, [...LAUNCH_FLAGS, `--user-data-dir=${profile}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chromium ${args.join(' ')}: no exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  }).finally(() => rmSync(profile, { recursive: true, force: true }));
}

/** The DOM of `url` (file:// or http://127.0.0.1) after Chromium parsed and laid it out. */
export async function dumpDom(url: string, timeoutMs?: number): Promise<string> {
  const r = await runChromium(['--dump-dom', url], timeoutMs);
  if (r.code !== 0 || !r.stdout.includes('<')) throw new Error(`chromium --dump-dom ${url} exited ${r.code}: ${r.stderr.slice(-500)}`);
  return r.stdout;
}

/** A PNG screenshot of `url` at `width`×`height`. */
export async function screenshot(url: string, o: { width?: number; height?: number; timeoutMs?: number } = {}): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'crc-shot-'));
  const file = join(dir, 'shot.png');
  try {
    const r = await runChromium(
      [`--screenshot=${file}`, `--window-size=${o.width ?? 1280},${o.height ?? 1600}`, '--hide-scrollbars', url],
      o.timeoutMs,
    );
    let png: Buffer;
    try {
      png = readFileSync(file);
    } catch {
      throw new Error(`chromium --screenshot ${url} wrote nothing (exit ${r.code}): ${r.stderr.slice(-500)}`);
    }
    return png;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A Chromium driven by playwright-core (for tests that click and type): the same executable and flags as above, never
 * a browser Playwright downloads (`playwright install` is not used). Close it in the test's afterAll.
 */
export async function launchBrowser(o: { timeoutMs?: number; args?: readonly string[] } = {}): Promise<import('playwright-core').Browser> {
  const { chromium } = await import('playwright-core');
  // Playwright adds --headless and its own temporary profile itself. `args` adds flags (--host-resolver-rules, ...).
  const args = [...LAUNCH_FLAGS.filter((f) => f !== '--headless'), ...(o.args ?? [])];
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args, timeout: o.timeoutMs ?? 30_000 });
}
