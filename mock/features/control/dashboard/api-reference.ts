// GET /__mock/docs: the bundled spec as one offline HTML page, rendered by Redocly's build-docs at `npm run build`
// (scripts/build.ts writes dist/api-reference.html; @redocly/cli is a devDependency, so an installed package cannot
// render it at run time). Served from dist/ whether the mock runs built (dist/mock/...) or from source in a checkout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_REFERENCE_FILE = 'api-reference.html';

/** Where the built page may be: the built mock's dist/ root, or dist/ of the checkout the source runs from. */
const API_REFERENCE_DIRS: readonly string[] = [new URL('../../../../', import.meta.url), new URL('../../../../dist/', import.meta.url)].map(
  (u) => fileURLToPath(u),
);

/**
 * The page's policy: Redoc's bundle is inline script and style, and it needs blob: workers (search); nothing may be
 * fetched from another host, not even fonts (the build strips the template's font link).
 */
export const API_REFERENCE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});

/** What a failed read means "not built here": no such file, a path through a non-directory, a directory in its place. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The page from the first of `dirs` that holds it, read once; undefined while none does (the route answers 404, never
 * a 500, and looks again on the next request, so a build run meanwhile is picked up).
 */
export function apiReferenceSource(dirs: readonly string[] = API_REFERENCE_DIRS): () => string | undefined {
  let cached: string | undefined;
  return () => {
    for (const dir of cached === undefined ? dirs : []) {
      try {
        cached = readFileSync(join(dir, API_REFERENCE_FILE), 'utf8');
        break;
      } catch (e) {
        if (!ABSENT.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      }
    }
    return cached;
  };
}

/** The rendered page from the default places, or undefined when it was never built. */
export const apiReferenceHtml = apiReferenceSource();

export const API_REFERENCE_MISSING = `The API reference is rendered when the package is built: run \`npm run build\` (it writes dist/${API_REFERENCE_FILE}), then reload.`;
