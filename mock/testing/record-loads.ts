// Test support, loaded with `node --import`: appends the URL of every ES module this process loads (packages imported
// from an ES module included, by their entry file) to the file named by LOADED_MODULES_FILE, one a line, so that a
// test can read which modules a mode loaded (mock/loads.test.ts).
import { register } from 'node:module';

const file = process.env.LOADED_MODULES_FILE;
if (!file) throw new Error('record-loads.ts needs LOADED_MODULES_FILE');
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
