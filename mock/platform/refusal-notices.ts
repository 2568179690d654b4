// One terminal line per origin or host the mock refuses for the first time, with the flag that would allow it: the
// browser shows the page only "Failed to fetch", so the terminal that runs the mock has to say why. Later refusals of
// the same origin or host print nothing (the request journal lists each one). What a client sent is printed with its
// control and bidi characters escaped, so a header cannot drive the terminal or reorder the line.
import type { Refusal } from './journal-entry.ts';

/** Origins and hosts remembered; past this a single line says the rest go unprinted (a flood of names stays bounded). */
const MAX_SUBJECTS = 1000;

/** C0 and C1 controls, DEL, bidi marks, embeddings, overrides and isolates, zero-width and line separators (also
 * escaped in the --upstream proxy's terminal line). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
export const visible = (text: string) => text.replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The printer of refusals: `print` gets one line per new (kind, origin or host). */
export function refusalNotices(print: (line: string) => void): (refusal: Refusal) => void {
  const seen = new Set<string>();
  let full = false;
  return (r) => {
    if (r.subject === undefined) return;
    const key = `${r.by} ${r.subject}`;
    if (seen.has(key) || full) return;
    if (seen.size >= MAX_SUBJECTS) {
      full = true;
      print(`refused: more than ${MAX_SUBJECTS} origins and hosts; the rest are not printed (GET /__mock/requests lists every refusal)`);
      return;
    }
    seen.add(key);
    print(`refused: ${visible(r.reason)}${r.allow ? `; to allow it: ${visible(r.allow)}` : ''}`);
  };
}
