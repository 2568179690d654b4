// The API reference served at /__mock/docs (mock/features/control/dashboard/api-reference.ts), rendered by Redocly's
// build-docs at `npm run build` (scripts/build.ts), because @redocly/cli is a devDependency. `--inlineBundle` puts
// Redoc's script in the page, so it loads nothing from a CDN; what Redoc still names of its own is settled here:
//   - telemetry: off (REDOCLY_TELEMETRY=off makes build-docs write `disableTelemetry: true` into the page, and the CLI
//     itself reports nothing while building), so the page sends no traces, not even to the mock;
//   - its "API docs by Redocly" logo: a small inline image (data:), where its CDN address was a broken image offline;
//   - any other address on its hosts (icon sets, the trace collector) points at this origin, where it answers 404;
//   - an empty icon, so that the browser does not ask for /favicon.ico (a 404 in the console).
// `npx tsx scripts/api-reference.ts` renders dist/api-reference.html alone.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const svg = (body: string, width: number) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="12.5" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#5b6470">${body}</text></svg>`,
  )}`;

/** Redoc's logo addresses, and the images that stand in for them. */
const LOGOS: Readonly<Record<string, string>> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svg('Redocly', 56),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svg('R', 10),
};

/** The page as served: telemetry off, the logos inline, Redoc's hosts pointed at this origin. */
export function offlinePage(html: string): string {
  let page = html
    .replaceAll('"disableTelemetry":false', '"disableTelemetry":true')
    .replace('<head>', '<head>\n  <link rel="icon" href="data:,">');
  for (const [from, to] of Object.entries(LOGOS)) page = page.replaceAll(from, to);
  return page.replace(/https:\/\/(cdn\.redoc\.ly|cdn\.redocly\.com|otel\.cloud\.redocly\.com)\//g, '/__mock/docs/offline/');
}

/** Renders `<root>/generated/openapi.json` into `out`; the reason when Redocly fails. */
export function renderApiReference(root: string, out: string): void {
  const redocly = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'build-docs',
      join(root, 'generated/openapi.json'),
      '--inlineBundle',
      '--title',
      'External Clinical Records API',
      '-o',
      out,
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  );
  if (redocly.error) throw redocly.error;
  if (redocly.status !== 0) throw new Error(`${redocly.stdout}${redocly.stderr}\nredocly build-docs exit ${redocly.status}`);
  writeFileSync(out, offlinePage(readFileSync(out, 'utf8')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  renderApiReference(root, join(root, 'dist', 'api-reference.html'));
  console.log('rendered dist/api-reference.html');
}
