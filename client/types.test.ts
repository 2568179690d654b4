// Runs tsc on the type tests (*.test-d.ts): vitest does not type-check, so this is what makes a type test count.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const project = fileURLToPath(new URL('./tsconfig.typetest.json', import.meta.url));

it('type tests compile: misuse of the client is a compile error', async () => {
  const result = await run(process.execPath, [tsc, '--noEmit', '-p', project], { timeout: 60_000 }).catch(
    (e: { stdout?: string; code?: number }) => ({ stdout: e.stdout ?? String(e), code: e.code }),
  );
  expect('code' in result ? result.stdout : '').toBe('');
}, 90_000);
