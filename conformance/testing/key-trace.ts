// Whether a text shows a key, for the hostile tests of the suite and of Dredd: the key or any 12 characters in a row of
// its random part, in any letter case, with dashes, line breaks or soft hyphens taken out (a key split across a
// wrapped line), or in base64 (key-forms.ts). Test-only.
import { base64Cores } from '../report/key-forms.ts';

/** The key's random part: its longest run of hex digits (the mock's keys read crk_<label>_<hex>), else the whole key. */
const randomPart = (key: string) => (key.match(/[0-9a-f]{16,}/gi) ?? []).sort((a, b) => b.length - a.length)[0] ?? key;

export function keyTraceIn(text: string, key: string): boolean {
  const run = randomPart(key).toLowerCase();
  const parts = Array.from({ length: Math.max(1, run.length - 11) }, (_, i) => run.slice(i, i + 12));
  const joined = text.replace(/-|\s+|\u00ad/g, '').toLowerCase();
  return parts.some((p) => joined.includes(p)) || base64Cores(key).some((c) => text.includes(c));
}
