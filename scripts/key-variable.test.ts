// One name for the main key everywhere (issue 31): the client examples in README.md and docs/ read the variable the
// conformance suite's --key and Dredd's --key default to, and no text of the repository names another.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KEY_ENV } from '../dredd/args.ts';
import { ROOT } from './testing/packed.ts';
import { KEY_VARS } from '../conformance/run/keys.ts';

const docs = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

it('the suite, Dredd and every client example read the same variable for the main key', () => {
  expect(KEY_ENV).toBe(KEY_VARS.main);
  const examples = docs.flatMap((f) => [...read(f).matchAll(/apiKey:\s*process\.env\.(\w+)/g)].map((m) => `${f}: ${m[1]}`));
  expect(examples.length).toBeGreaterThanOrEqual(2);
  for (const e of examples) expect(e).toMatch(new RegExp(`: ${KEY_ENV}$`));
});

it('no document names a second variable for the main key', () => {
  for (const f of docs) expect(read(f), f).not.toMatch(/CLINICAL_RECORDS_API_KEY/);
});
