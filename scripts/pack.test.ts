// The three packages as other repositories get them: `npm run pack` writes the tarballs, which are installed into
// temporary projects. The light package installs little and quietly; every documented import type-checks under the
// module settings docs/client.md names and runs (the CommonJS routes too); the commands start however they are
// started; and the products run on Node 22 and 24 as well as on the Node running the tests.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_RESULT,
  apiConsumer,
  CJS_IMPORT,
  CJS_REQUIRE,
  MISUSE,
  MOCK_CONSUMER,
  MOCK_RESULT,
  PAGE,
  SPEC_IMPORT,
  tsconfig,
} from './testing/consumers.ts';
import { type NodeBinary, nodeBinary, OTHER_MAJORS } from './testing/node-versions.ts';
import {
  bytesUnder,
  install,
  installedPackages,
  installScripts,
  packAll,
  project,
  ROOT,
  type Run,
  sh,
  shAnyway,
} from './testing/packed.ts';

const work = mkdtempSync(join(tmpdir(), 'crc-pack-'));
let tarballs: Record<string, string> = {};
/** What the light package's own install printed and left, read before anything else is installed beside it. */
interface LightInstall extends Run {
  packages: string[];
  bytes: number;
  scripts: string[];
}
// The three consumer projects are installed side by side once the tarballs exist (npm spends much of an install
// waiting on the registry and the disk); each test awaits the install it judges. A failed install fails its tests.
let installs: { light: Promise<LightInstall>; apiTools: Promise<Run>; commands: Promise<Run>; lightPath: Promise<Run> };
/** The other Node majors' binaries (a download on a fresh clone), fetched meanwhile too; once each. */
let otherNodes = new Map<number, Promise<NodeBinary>>();
const otherNode = (major: number) => otherNodes.get(major) ?? nodeBinary(major);
afterAll(async () => {
  await Promise.allSettled([...Object.values(installs ?? {}), ...otherNodes.values()]);
  rmSync(work, { recursive: true, force: true });
}, 300_000);
beforeAll(async () => {
  tarballs = await packAll(join(work, 'tarballs'));
  const apiApp = project(join(work, 'api-app'));
  const light = install(apiApp, [tarballs['clinical-records-api']!]).then((r) => ({
    ...r,
    packages: installedPackages(apiApp),
    bytes: bytesUnder(join(apiApp, 'node_modules')),
    scripts: installScripts(apiApp),
  }));
  installs = {
    light,
    // The consumer's TypeScript goes in only after the light package's own install was measured.
    apiTools: light.then(() => install(apiApp, ['typescript@5.9.3', '@types/node@20.19.43'])),
    commands: install(project(join(work, 'cmd-app')), [
      ...Object.values(tarballs),
      'msw@2.15.0',
      'typescript@5.9.3',
      '@types/node@20.19.43',
    ]),
    lightPath: install(project(join(work, 'light-app')), ['--omit=optional', tarballs['clinical-records-mock']!]),
  };
  otherNodes = new Map(OTHER_MAJORS.map((m) => [m, nodeBinary(m)]));
  for (const p of [...Object.values(installs), ...otherNodes.values()]) p.catch(() => undefined); // awaited (and reported) by the tests that need them
}, 180_000);

const attw = (tarball: string) =>
  shAnyway(join(ROOT, 'node_modules/.bin/attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], work);
const tsc = (app: string, config: string) => {
  writeFileSync(join(app, 'tsconfig.json'), config);
  return shAnyway(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app);
};
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;

it('writes three tarballs, and the ones with imports pass attw', async () => {
  expect(Object.keys(tarballs).sort()).toEqual(['clinical-records-api', 'clinical-records-conformance', 'clinical-records-mock']);
  for (const name of ['clinical-records-api', 'clinical-records-mock']) {
    const { code, stdout } = await attw(tarballs[name]!);
    expect(code, stdout).toBe(0);
  }
}, 120_000); // attw runs while the consumer projects install beside it

describe('clinical-records-api, the light package', () => {
  const app = join(work, 'api-app');
  const nodes = [{ major: Number(process.versions.node.split('.')[0]), bin: process.execPath }];

  it('installs at most 5 packages and 3 MB, runs no install script and prints no warning', async () => {
    const { stdout, stderr, packages, bytes, scripts } = await installs.light;
    expect(`${stdout}${stderr}`).not.toMatch(/warn/i);
    expect(packages.length, packages.join(', ')).toBeLessThanOrEqual(5);
    expect(bytes).toBeLessThanOrEqual(3_000_000);
    expect(scripts).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(app, 'node_modules/clinical-records-api/package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(shipped.scripts).toBeUndefined();
    expect(Object.keys(shipped.dependencies as object)).toEqual(['openapi-fetch']);
    // Its own version, and the changelog entry for it (npm run diff -- --changelog).
    const changelog = readFileSync(join(app, 'node_modules/clinical-records-api/CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`\n## ${shipped.version as string} (`);
  }, 240_000);

  it('every documented import type-checks under moduleResolution bundler, node16 and nodenext, and runs', async () => {
    await installs.apiTools;
    writeFileSync(join(app, 'consumer.ts'), apiConsumer(SPEC_IMPORT.attributes));
    writeFileSync(join(app, 'consumer16.ts'), apiConsumer(SPEC_IMPORT.require));
    writeFileSync(join(app, 'misuse.ts'), MISUSE);
    writeFileSync(join(app, 'dynamic.cts'), CJS_IMPORT);
    writeFileSync(join(app, 'required.cts'), CJS_REQUIRE);
    const settings = [
      tsconfig('esnext', 'bundler', ['consumer.ts', 'consumer16.ts', 'misuse.ts']),
      tsconfig('node16', 'node16', ['consumer16.ts', 'misuse.ts', 'dynamic.cts'], 'out16'),
      tsconfig('nodenext', 'nodenext', ['consumer.ts', 'consumer16.ts', 'misuse.ts', 'dynamic.cts', 'required.cts'], 'out'),
    ];
    for (const config of settings) expect((await tsc(app, config)).stdout, config).toBe('');
    // What docs/client.md says node16 cannot do: import attributes, and require() of an ES module.
    const refused = await tsc(app, tsconfig('node16', 'node16', ['consumer.ts', 'required.cts'], 'out16'));
    expect(refused.stdout).toMatch(/consumer\.ts.*TS2823/);
    expect(refused.stdout).toMatch(/required\.cts.*TS1471/);

    for (const { bin } of nodes) {
      for (const file of ['out/consumer.js', 'out/consumer16.js', 'out16/consumer16.js'])
        expect({ ...lastJson((await sh(bin, [join(app, file)], app, 30_000)).stdout), node: undefined }).toEqual(API_RESULT);
      expect(lastJson((await sh(bin, [join(app, 'out/dynamic.cjs')], app)).stdout)).toEqual({
        cjs: 'import()',
        client: 'function',
        webhooks: 'function',
      });
      expect(lastJson((await sh(bin, [join(app, 'out/required.cjs')], app)).stdout)).toEqual({ cjs: 'require', client: 'function' });
    }
  }, 240_000);

  it.each(OTHER_MAJORS)(
    'runs on Node %i',
    async (major) => {
      const { bin } = await otherNode(major);
      for (const file of ['out/consumer.js', 'out/dynamic.cjs', 'out/required.cjs']) {
        const out = lastJson((await sh(bin, [join(app, file)], app, 30_000)).stdout);
        if (file === 'out/consumer.js') expect(out).toEqual({ ...API_RESULT, node: String(major) });
        else expect(out.client).toBe('function');
      }
    },
    300_000,
  );
});

describe('clinical-records-mock and clinical-records-conformance, the commands', () => {
  const app = join(work, 'cmd-app');
  const bin = (name: string) => join(app, 'node_modules/.bin', name);

  it('install built (no build step, no dev dependency), with the mock in process and its MSW handlers', async () => {
    await installs.commands;
    for (const name of ['clinical-records-mock', 'clinical-records-conformance'])
      expect(
        (JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { scripts?: object }).scripts,
      ).toBeUndefined();
    expect(
      installedPackages(app).filter((p) => /^(typescript|tsx|@redocly|vitest|esbuild)@/.test(p) && !p.startsWith('typescript@')),
    ).toEqual([]);

    writeFileSync(join(app, 'mock.ts'), MOCK_CONSUMER);
    for (const [module, resolution] of [
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
      ['node16', 'node16'],
    ])
      expect((await tsc(app, tsconfig(module!, resolution!, ['mock.ts'], module === 'nodenext' ? 'out' : undefined))).stdout).toBe('');
    expect(JSON.parse((await sh(process.execPath, [join(app, 'out/mock.js')], app, 30_000)).stdout)).toEqual(MOCK_RESULT);

    // A page's bundler: the client and the mock resolve to their browser entries (no node: module, no shim).
    writeFileSync(join(app, 'page.js'), PAGE);
    const bundled = await sh(
      join(ROOT, 'node_modules/.bin/esbuild'),
      ['page.js', '--bundle', '--platform=browser', '--format=esm', '--metafile=meta.json', '--outfile=out/page.js'],
      app,
    );
    expect(bundled.stderr).not.toMatch(/error/i);
    const inputs = Object.keys((JSON.parse(readFileSync(join(app, 'meta.json'), 'utf8')) as { inputs: object }).inputs);
    expect(inputs.filter((f) => f.startsWith('node:'))).toEqual([]);
    expect(inputs).toContain('node_modules/clinical-records-api/dist/client/index.js');
    expect(inputs).toContain('node_modules/clinical-records-mock/dist/mock/in-process/browser.js');
    expect(inputs).toContain('node_modules/clinical-records-mock/dist/spec/runtime/bundle-source.browser.js');
  }, 300_000);

  it('--help works through npx, node_modules/.bin, a global install and node <package>/dist/…/cli.js', async () => {
    const global = join(work, 'global');
    await sh(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        global,
        '--no-audit',
        '--no-fund',
        join(app, 'node_modules/clinical-records-mock'),
        join(app, 'node_modules/clinical-records-conformance'),
      ],
      app,
      120_000,
    );
    symlinkSync(bin('clinical-records-mock'), join(work, 'linked-mock')); // a link to a link, as some version managers make
    const starts: Array<[string, string[], RegExp]> = [
      ['npx', ['clinical-records-mock', '--help'], /^Usage: clinical-records-mock/m],
      ['npx', ['clinical-records-conformance', '--help'], /^Usage: clinical-records-conformance/m],
      [bin('clinical-records-mock'), ['--help'], /^Usage: clinical-records-mock/m],
      [bin('clinical-records-conformance'), ['--help'], /^Usage: clinical-records-conformance/m],
      [join(work, 'linked-mock'), ['--help'], /^Usage: clinical-records-mock/m],
      [join(global, 'bin/clinical-records-mock'), ['--help'], /^Usage: clinical-records-mock/m],
      [join(global, 'bin/clinical-records-conformance'), ['--help'], /^Usage: clinical-records-conformance/m],
      [process.execPath, [join(app, 'node_modules/clinical-records-mock/dist/mock/cli.js'), '--help'], /^Usage: clinical-records-mock/m],
      [
        process.execPath,
        [join(app, 'node_modules/clinical-records-conformance/dist/conformance/cli.js'), '--help'],
        /^Usage: clinical-records-conformance/m,
      ],
    ];
    for (const [cmd, args, usage] of starts) expect((await sh(cmd, args, app, 60_000)).stdout, `${cmd} ${args.join(' ')}`).toMatch(usage);
  }, 240_000);

  /** Starts the installed mock with one Node, reads its health, and runs the conformance suite against it with the same Node. */
  async function mockAndRun(node: string): Promise<{ health: number; exit: number; summary: string }> {
    const proc = spawn(node, [join(app, 'node_modules/clinical-records-mock/dist/mock/cli.js'), '--port', '0', '--time-scale', '0.01'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    try {
      let api: string | undefined;
      let control: string | undefined;
      for (const end = Date.now() + 30_000; !(api && control) && Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        api = out.match(/API\s+(http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
        control = out.match(/control\s+(http:\/\/127\.0\.0\.1:\d+\S*)/)?.[1];
      }
      if (!api || !control) throw new Error(`the installed mock did not start:\n${out}`);
      const health = (await fetch(`${control}/health`)).status;
      const run = await shAnyway(
        node,
        [join(app, 'node_modules/clinical-records-conformance/dist/conformance/cli.js'), '--url', api, '--mock', '--only', 'PAT'],
        app,
        120_000,
      );
      return {
        health,
        exit: run.code,
        summary:
          run.stdout
            .split('\n')
            .filter((l) => /passed/.test(l))
            .pop() ?? run.stdout + run.stderr,
      };
    } finally {
      proc.kill('SIGKILL');
    }
  }

  const NODES: Array<[string, number | undefined]> = [
    ['the Node running the tests', undefined],
    ...OTHER_MAJORS.map((m): [string, number] => [`Node ${m}`, m]),
  ];
  it.each(NODES)(
    'on %s, the installed mock starts and a conformance run against it passes',
    async (_, major) => {
      const node = major ? (await otherNode(major)).bin : process.execPath;
      const { health, exit, summary } = await mockAndRun(node);
      expect(health).toBe(200);
      expect(exit, summary).toBe(0);
      expect(summary).toMatch(/\d+ passed, 0 failed/);
    },
    300_000,
  );
});

describe('clinical-records-mock, the light path (issue 42, item 7)', () => {
  const app = join(work, 'light-app');

  it('with --omit=optional installs what createMock needs, not the command: at most 50 packages and 20 MB', async () => {
    await installs.lightPath;
    const packages = installedPackages(app);
    expect(packages.filter((p) => p.startsWith('@stoplight/') || p.startsWith('@hono/node-server@'))).toEqual([]);
    expect(packages.length, packages.join(', ')).toBeLessThanOrEqual(50);
    expect(bytesUnder(join(app, 'node_modules'))).toBeLessThanOrEqual(20_000_000);
    console.log(`light path: ${packages.length} packages, ${(bytesUnder(join(app, 'node_modules')) / 1e6).toFixed(1)} MB`);
    writeFileSync(
      join(app, 'light.mjs'),
      `import { createMock } from 'clinical-records-mock';
const mock = await createMock();
const key = mock.keys.find((k) => k.scopes.includes('*')).key;
const r = await mock.fetch(mock.baseUrl + '/patients', { headers: { 'x-api-key': key } });
console.log(JSON.stringify({ status: r.status, meta: (await r.json()).meta }));
await mock.close();`,
    );
    expect(lastJson((await sh(process.execPath, [join(app, 'light.mjs')], app, 30_000)).stdout)).toEqual({
      status: 200,
      meta: { page: 1, limit: 20, total_pages: 3 },
    });
    // The command says what it misses, and how to get it.
    const cli = await shAnyway(process.execPath, [join(app, 'node_modules/clinical-records-mock/dist/mock/cli.js'), '--port', '0'], app);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/optional dependency this install left out.*without --omit=optional/);
  }, 300_000);
});
