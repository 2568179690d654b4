// Keys never reach a report: every string written anywhere passes through a Redactor that knows them all. A server
// may echo a key back and evidence is cut to a few hundred characters, so answers are redacted as they arrive (before
// any check cuts them: conformance/target/http.ts), and a piece of a key a cut left elsewhere (its first or last PART
// characters or more, e.g. in a webhook body a check quoted in part) is replaced too, wherever it is.
import { redactKeyForms } from './key-forms.ts';

/** The shortest piece of a key's start or end treated as the key (a cut can leave any length). */
const PART = 8;

export class Redactor {
  private readonly secrets = new Map<string, string>();
  /** The secrets longest first, so a key that contains another is replaced whole; sorted once, not once a string. */
  private bySize?: Array<[string, string]>;

  /** Registers a secret and the placeholder that replaces it (e.g. `$CLINICAL_RECORDS_KEY`). */
  add(secret: string | undefined, placeholder: string): void {
    if (secret && secret.length >= 4) {
      this.secrets.set(secret, placeholder);
      this.bySize = undefined;
    }
  }

  /** The secrets whose placeholder is a shell variable: name → value (to write a file that sets them). */
  variables(): Map<string, string> {
    return new Map([...this.secrets].filter(([, p]) => p.startsWith('$')).map(([s, p]) => [p.slice(1), s]));
  }

  redact(text: string): string {
    const bySize = (this.bySize ??= [...this.secrets].sort((a, b) => b[0].length - a[0].length));
    let out = text;
    for (const [secret, placeholder] of bySize) if (out.includes(secret)) out = out.split(secret).join(placeholder);
    // Then the key in another case, split by a dash or a line break, or in base64 (key-forms.ts).
    return redactPieces(redactKeyForms(out, bySize), bySize);
  }

  /** Redacts every string inside a JSON-like value, object keys included. */
  deep<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === 'string') return this.redact(v);
    if (Array.isArray(v)) return v.map((x) => this.walk(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.redact(k), this.walk(x)]));
    return v;
  }
}

/** Replaces each run of `text` that is the start or the end of a secret, PART characters long or more. */
function redactPieces(text: string, secrets: Array<[string, string]>): string {
  const spans: Array<{ from: number; to: number; placeholder: string }> = [];
  for (const [secret, placeholder] of secrets) {
    if (secret.length < PART) continue;
    const head = secret.slice(0, PART);
    const tail = secret.slice(-PART);
    for (let i = text.indexOf(head); i >= 0; i = text.indexOf(head, i + 1)) {
      let n = PART;
      while (n < secret.length && text[i + n] === secret[n]) n++;
      spans.push({ from: i, to: i + n, placeholder });
    }
    for (let i = text.indexOf(tail); i >= 0; i = text.indexOf(tail, i + 1)) {
      let from = i;
      const to = i + PART;
      while (from > 0 && to - from < secret.length && text[from - 1] === secret[secret.length - (to - from) - 1]) from--;
      spans.push({ from, to, placeholder });
    }
  }
  if (!spans.length) return text;
  // Overlapping pieces (keys sharing a prefix) are one piece: the longest names it.
  spans.sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: typeof spans = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.from < last.to) {
      if (s.to - s.from > last.to - last.from) last.placeholder = s.placeholder;
      last.to = Math.max(last.to, s.to);
    } else merged.push({ ...s });
  }
  let out = '';
  let at = 0;
  for (const s of merged) {
    out += `${text.slice(at, s.from)}[part of ${s.placeholder}]`;
    at = s.to;
  }
  return out + text.slice(at);
}
