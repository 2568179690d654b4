// "Was this file started as the program?" for the commands' entry files, however they are started: `node dist/.../cli.js`,
// `npm run`, `npx`, `node_modules/.bin` and global installs (the last three start a symlink, so argv[1] names the link,
// not the file: both sides are compared as real paths).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function isMainModule(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (!argv1) return false;
  const started = real(argv1) ?? real(`${argv1}.js`);
  return started !== undefined && started === real(fileURLToPath(moduleUrl));
}
