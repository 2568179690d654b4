// What the suite reads and keeps of a target's answers, whatever the target sends: one answer is read up to
// MAX_ANSWER_BYTES (a 50 MB or endless answer is cut off, never buffered), and the text a run keeps for its report
// (failures' evidence) is bounded per string and in total, so a hostile server cannot exhaust the suite's memory.
// Cuts never end inside a word: a key the target echoed is kept whole (and redacted later) or dropped, never halved.

/** The most one answer's body is read (10 MB): past it the request fails, saying so. */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export class AnswerTooLarge extends Error {}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * The body of `res` as text (UTF-8), read at most `max` bytes: an answer that declares more (Content-Length) is not
 * read at all, one that goes on past it is abandoned there; either way the connection is let go and AnswerTooLarge
 * says why. Decompressed bytes count, so a compressed bomb stops at the bound too.
 */
export async function readBounded(res: Response, max = MAX_ANSWER_BYTES): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new AnswerTooLarge(`answer of ${mb(declared)} (Content-Length) is over the ${mb(max)} bound: not read`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(`answer over the ${mb(max)} bound: read no further`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const WORD = /[\w.~+/=-]/;

/** `s` cut to at most `max` characters, backing off to the start of a word the cut would split, with what was left out. */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = Math.max(0, max);
  while (end > 0 && WORD.test(s[end - 1]!) && WORD.test(s[end]!)) end--;
  return `${s.slice(0, end)}… (${s.length - end} more characters not kept)`;
}

/** The text one run keeps of what targets sent: each string at most `perString`, all of them at most `total`. */
export class KeptText {
  private left: number;

  constructor(
    total = 32 * 1024 * 1024,
    private readonly perString = 16 * 1024,
    /** Once `total` is spent, what each string keeps still (enough to read what it was). */
    private readonly floor = 256,
  ) {
    this.left = total;
  }

  keep(s: string): string {
    const out = cutText(s, Math.max(this.floor, Math.min(this.perString, this.left)));
    this.left -= out.length;
    return out;
  }
}
