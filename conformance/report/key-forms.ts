// The forms a target may echo a key in besides the key itself, for the suite's Redactor and Dredd's Secrets alike: in
// another letter case (a server that upper-cases what it quotes), split by one separator (a dash, a line break or a
// soft hyphen that a reporter wrapping long words puts inside it), and base64-encoded (a token or a JSON document
// echoed in base64, standard or URL-safe, the key at any offset of it).

/** Keys shorter than this are matched exactly only: looser forms of a short one would match ordinary text. */
const LOOSE_MIN = 8;

/** Between any two characters of a key: nothing, or one dash, whitespace run or soft hyphen. */
const SEPARATOR = '(?:-|\\s+|\\u00ad)?';

const escapeRe = (c: string) => c.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

const patterns = new Map<string, RegExp>();

/** The key in any letter case, with at most one separator between any two of its characters. */
function loose(key: string): RegExp {
  let re = patterns.get(key);
  if (!re) patterns.set(key, (re = new RegExp([...key].map(escapeRe).join(SEPARATOR), 'gi')));
  re.lastIndex = 0;
  return re;
}

/**
 * What every base64 text carrying the key contains: for each of the three offsets the key can start at within a
 * 3-byte group, the characters encoded from its bytes alone; standard and URL-safe alphabets.
 */
export function base64Cores(key: string): string[] {
  // Memoized: a run redacts every string of its report against every key (encoding them each time was most of it).
  let found = cores.get(key);
  if (!found) cores.set(key, (found = encodedCores(key)));
  return found;
}

const cores = new Map<string, string[]>();

function encodedCores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const found = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil(offset / 3) * 4;
    const last = Math.floor((offset + bytes.length) / 3) * 4;
    const core = text.slice(first, last);
    if (core.length >= LOOSE_MIN) found.add(core).add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...found];
}

/** `text` with every looser form of each secret (longest first) replaced: the key's by its placeholder, base64 named so. */
export function redactKeyForms(text: string, secrets: Array<[string, string]>): string {
  let out = text;
  for (const [secret, placeholder] of secrets) {
    if (secret.length < LOOSE_MIN) continue;
    out = out.replace(loose(secret), () => placeholder);
    for (const core of base64Cores(secret)) if (out.includes(core)) out = out.split(core).join(`[base64 of ${placeholder}]`);
  }
  return out;
}
