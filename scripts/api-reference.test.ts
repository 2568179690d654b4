// The page build-docs writes, made offline: telemetry off, Redoc's logo inline, its hosts pointed at this origin, an
// empty icon (no /favicon.ico request).
import { describe, expect, it } from 'vitest';
import { offlinePage } from './api-reference.ts';

describe('offlinePage', () => {
  it('turns telemetry off, inlines the logos and keeps every other host out', () => {
    const built =
      '<head><title>x</title></head><script>const o = {"skipBundle":true,"disableTelemetry":false};' +
      'src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`;' +
      'u=`https://otel.cloud.redocly.com/v1/traces`,f=`https://cdn.redocly.com/icons/fa/7.0.0`</script>';
    const page = offlinePage(built);
    expect(page).toContain('"disableTelemetry":true');
    expect(page).not.toContain('"disableTelemetry":false');
    expect(page).toContain('<head>\n  <link rel="icon" href="data:,">');
    expect(page.match(/src:e\?`data:image\/svg\+xml,[^`]+`:`data:image\/svg\+xml,[^`]+`/)).not.toBeNull();
    expect(page).toContain('u=`/__mock/docs/offline/v1/traces`');
    expect(page).toContain('f=`/__mock/docs/offline/icons/fa/7.0.0`');
    expect(page).not.toMatch(/https:\/\/(cdn\.redoc\.ly|cdn\.redocly\.com|otel\.cloud\.redocly\.com)/);
  });
});
