// GET /__mock/docs: the bundled spec as one offline HTML page, rendered by Redocly's build-docs at `npm run build`
// (scripts/build.ts writes dist/api-reference.html; @redocly/cli is a devDependency, so an installed package cannot
// render it at run time). Served from dist/ whether the mock runs built (dist/mock/...) or from source in a checkout.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const API_REFERENCE_FILE = 'api-reference.html';

/** Where the built page may be: beside the built mock's dist/ root, or in dist/ of the checkout the source runs from. */
const CANDIDATES = [
  new URL(`../../../../${API_REFERENCE_FILE}`, import.meta.url),
  new URL(`../../../../dist/${API_REFERENCE_FILE}`, import.meta.url),
].map((u) => fileURLToPath(u));

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

let cached: string | undefined;

/** The rendered page, or undefined when it was never built. */
export function apiReferenceHtml(): string | undefined {
  if (cached) return cached;
  const file = CANDIDATES.find((f) => existsSync(f));
  return file ? (cached = readFileSync(file, 'utf8')) : undefined;
}

export const API_REFERENCE_MISSING = `The API reference is rendered when the package is built: run \`npm run build\` (it writes dist/${API_REFERENCE_FILE}), then reload.`;
