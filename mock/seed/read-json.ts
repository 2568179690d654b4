// Reads a large JSON object file without ever holding its whole text: the file is read in chunks, and each
// top-level value (and each element of a top-level array, the seed's row sections) is parsed on its own. Peak memory
// is the parsed result plus one chunk, instead of the text plus the result. Any input this splitter does not follow
// (it is not a JSON object, or is malformed) is handed to JSON.parse whole, so errors read exactly as JSON.parse's.
// `element` sees each element of a top-level array as soon as it is parsed, while it is still young: garbage it makes
// of the element (a string replaced by an equal shared one) then dies in the young generation instead of leaving
// holes in the old one, which the process would keep as resident memory.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const [QUOTE, BACKSLASH, COMMA, COLON, LBRACE, RBRACE, LBRACKET, RBRACKET] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d];

class Fallback extends Error {}

export function readJsonFile(path: string | URL, chunkSize = CHUNK, element?: <T>(value: T) => T): unknown {
  try {
    return splitRead(path, chunkSize, element);
  } catch (e) {
    if (!(e instanceof Fallback)) throw e;
    return JSON.parse(readFileSync(path, 'utf8'));
  }
}

function splitRead(path: string | URL, chunkSize: number, element = <T>(value: T) => value): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // As JSON.parse does: an own property, even for "__proto__".
  const set = (k: string, value: unknown) => Object.defineProperty(out, k, { value, writable: true, enumerable: true, configurable: true });
  // Where we are: before the object, expecting a key, a colon, a value, or what follows a value (at depth 1 or 2).
  let at = 'start' as 'start' | 'key' | 'colon' | 'value' | 'after' | 'element' | 'afterElement' | 'end';
  let key = '';
  let section: unknown[] | undefined; // the top-level array being read
  // The value being captured: its bytes, nesting depth, string state.
  let parts: Buffer[] = [];
  let from = -1; // start of the capture in the current chunk
  let depth = 0;
  let inString = false;
  let escaped = false;
  let primitive = false;

  const finish = (buf: Buffer, end: number): unknown => {
    parts.push(buf.subarray(from, end));
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    from = -1;
    try {
      return JSON.parse(text);
    } catch {
      throw new Fallback();
    }
  };
  const done = (value: unknown) => {
    if (section) section.push(element(value)), (at = 'afterElement');
    else if (at === 'key') (key = value as string), (at = 'colon');
    else set(key, value), (at = 'after');
  };

  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunkSize);
    for (let n; (n = readSync(fd, buf, 0, chunkSize, null)) > 0; ) {
      for (let i = 0; i < n; i++) {
        const b = buf[i]!;
        if (from >= 0) {
          // Inside a captured value.
          if (inString) {
            if (escaped) escaped = false;
            else if (b === BACKSLASH) escaped = true;
            else if (b === QUOTE) {
              inString = false;
              if (depth === 0 && !primitive) done(finish(buf, i + 1));
            }
            continue;
          }
          if (primitive) {
            if (b === COMMA || b === RBRACE || b === RBRACKET || WS.has(b)) {
              done(finish(buf, i));
              i--; // the terminator is read again as structure
            }
            continue;
          }
          if (b === QUOTE) inString = true;
          else if (b === LBRACE || b === LBRACKET) depth++;
          else if ((b === RBRACE || b === RBRACKET) && --depth === 0) done(finish(buf, i + 1));
          continue;
        }
        if (WS.has(b)) continue;
        const startValue = () => {
          from = i;
          depth = 0;
          primitive = false;
          if (b === QUOTE) inString = true;
          else if (b === LBRACE || b === LBRACKET) depth = 1;
          else primitive = true;
        };
        switch (at) {
          case 'start':
            if (b !== LBRACE) throw new Fallback();
            at = 'key';
            break;
          case 'key':
            if (b === RBRACE && Object.keys(out).length === 0) at = 'end';
            else if (b === QUOTE) startValue();
            else throw new Fallback();
            break;
          case 'colon':
            if (b !== COLON) throw new Fallback();
            at = 'value';
            break;
          case 'value':
            if (b === LBRACKET) (section = []), set(key, section), (at = 'element');
            else startValue();
            break;
          case 'element':
            if (b === RBRACKET && section!.length === 0) (section = undefined), (at = 'after');
            else startValue();
            break;
          case 'afterElement':
            if (b === COMMA) at = 'element';
            else if (b === RBRACKET) (section = undefined), (at = 'after');
            else throw new Fallback();
            break;
          case 'after':
            if (b === COMMA) at = 'key';
            else if (b === RBRACE) at = 'end';
            else throw new Fallback();
            break;
          case 'end':
            throw new Fallback();
        }
      }
      if (from >= 0) {
        parts.push(Buffer.from(buf.subarray(from, n)));
        from = 0;
      }
    }
  } finally {
    closeSync(fd);
  }
  if (at !== 'end' || from >= 0) throw new Fallback();
  return out;
}
