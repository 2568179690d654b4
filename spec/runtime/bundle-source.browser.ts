// The bundled spec in a page: imported, so the page's bundler puts it in the bundle (no file to read). Chosen over
// bundle-source.ts by the package's `browser` field.
import bundle from '../../generated/openapi.json' with { type: 'json' };

export const readBundle = (): unknown => structuredClone(bundle);
