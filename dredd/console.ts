// The Dredd process's output on its way to the user: keys replaced by their placeholders, then control characters
// escaped, line by line (a key split across two chunks is still caught). A line that never ends is passed on in
// pieces, redacted first and holding back what could be the start of a key, so memory stays bounded either way.
import { StringDecoder } from 'node:string_decoder';
import { escapeControls } from './sanitize.ts';
import type { Secrets } from './secrets.ts';

/** A line longer than this is passed on before its end. */
const LINE_BOUND = 64 * 1024;

export function safeWriter(secrets: Secrets, write: (s: string) => void): { push(chunk: Buffer): void; end(): void } {
  let pending = '';
  // A character split across two chunks is decoded whole.
  const decoder = new StringDecoder('utf8');
  return {
    push(chunk) {
      pending += decoder.write(chunk);
      const cut = pending.lastIndexOf('\n');
      if (cut >= 0) {
        write(escapeControls(secrets.redact(pending.slice(0, cut + 1))));
        pending = pending.slice(cut + 1);
      }
      if (pending.length > LINE_BOUND) {
        // Redacted first; the tail that may hold the start of a key not yet arrived whole waits for the next chunk.
        const redacted = secrets.redact(pending);
        const hold = Math.max(0, secrets.longest - 1);
        write(escapeControls(redacted.slice(0, redacted.length - hold)));
        pending = redacted.slice(redacted.length - hold);
      }
    },
    end() {
      pending += decoder.end();
      if (pending) write(escapeControls(secrets.redact(pending)));
      pending = '';
    },
  };
}
