// Keys never reach a report: every string written anywhere passes through one Redactor that knows them all.
export class Redactor {
  private readonly secrets = new Map<string, string>();

  /** Registers a secret and the placeholder that replaces it (e.g. `$CLINICAL_RECORDS_KEY`). */
  add(secret: string | undefined, placeholder: string): void {
    if (secret && secret.length >= 4) this.secrets.set(secret, placeholder);
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a key that contains another is replaced whole.
    for (const [secret, placeholder] of [...this.secrets].sort((a, b) => b[0].length - a[0].length))
      out = out.split(secret).join(placeholder);
    return out;
  }

  /** Redacts every string inside a JSON-like value. */
  deep<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value ?? null))) as T;
  }
}
