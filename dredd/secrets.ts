// The keys a run sends, and the placeholder each is shown as. Text and raw bytes alike are redacted whole-key:
// nothing that could cut a key (a body trimmed for a report) runs before redaction.
import { redactKeyForms } from '../conformance/report/key-forms.ts';

/** Keys shorter than this are not redacted (they would replace ordinary words). */
const MIN_SECRET = 4;

export class Secrets {
  private readonly known = new Map<string, string>();

  /** Registers a key and its placeholder (e.g. `$CLINICAL_RECORDS_KEY`); a key already known keeps its first. */
  add(secret: string | undefined, placeholder: string): void {
    if (secret && secret.length >= MIN_SECRET && !this.known.has(secret)) this.known.set(secret, placeholder);
  }

  has(secret: string): boolean {
    return this.known.has(secret);
  }

  /** The longest form of a key: a stream redacted in pieces keeps this many characters back (base64, split forms). */
  get longest(): number {
    return 2 * Math.max(0, ...[...this.known.keys()].map((k) => k.length)) + 8;
  }

  /** Longest first, so a key that contains another is replaced whole. */
  private ordered(): Array<[string, string]> {
    return [...this.known].sort((a, b) => b[0].length - a[0].length);
  }

  redact(text: string): string {
    let out = text;
    for (const [secret, placeholder] of this.ordered()) out = out.split(secret).join(placeholder);
    // The key in another case, split by a dash or a line break, or in base64, as the suite's reports (key-forms.ts).
    return redactKeyForms(out, this.ordered());
  }

  /** The same on bytes (a body that is not UTF-8 still never carries a key). */
  redactBytes(bytes: Buffer): Buffer {
    let out = bytes;
    for (const [secret, placeholder] of this.ordered()) {
      const needle = Buffer.from(secret);
      if (out.indexOf(needle) < 0) continue;
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, from)) {
        parts.push(out.subarray(from, at), Buffer.from(placeholder));
        from = at + needle.length;
      }
      parts.push(out.subarray(from));
      out = Buffer.concat(parts);
    }
    // The looser forms are ASCII: latin1 maps each byte to one character and back, so other bytes pass unchanged.
    const text = out.toString('latin1');
    const redacted = redactKeyForms(text, this.ordered());
    return redacted === text ? out : Buffer.from(redacted, 'latin1');
  }
}
