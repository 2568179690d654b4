// The bundled spec in Node: read from generated/openapi.json beside this module (dist/ keeps the layout). A page
// gets bundle-source.browser.ts instead, through the package's `browser` field (esbuild, Vite and webpack honour it).
import { readFileSync } from 'node:fs';

const BUNDLE_URL = new URL('../../generated/openapi.json', import.meta.url);

export const readBundle = (): unknown => JSON.parse(readFileSync(BUNDLE_URL, 'utf8'));
