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
  const splitter = new ObjectSplitter(element);
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunkSize);
    for (let n; (n = readSync(fd, buf, 0, chunkSize, null)) > 0; ) splitter.chunk(buf, n);
  } finally {
    closeSync(fd);
  }
  return splitter.end();
}

/** Where the splitter is: before the object, expecting a key, a colon, a value, or what follows a value (at depth 1 or 2). */
type At = 'start' | 'key' | 'colon' | 'value' | 'after' | 'element' | 'afterElement' | 'end';

/** The object being read, fed chunk by chunk: the structure it follows byte by byte, and the value it captures. */
class ObjectSplitter {
  private readonly out: Record<string, unknown> = {};
  private at: At = 'start';
  private key = '';
  private section: unknown[] | undefined; // the top-level array being read
  // The value being captured: its bytes, nesting depth, string state.
  private parts: Buffer[] = [];
  private from = -1; // start of the capture in the current chunk
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;

  constructor(private readonly element: <T>(value: T) => T) {}

  /** The first `n` bytes of `buf`; a capture still open at its end is kept (copied: the buffer is reused). */
  chunk(buf: Buffer, n: number): void {
    for (let i = 0; i < n; i++) {
      const b = buf[i]!;
      // A primitive's terminator is not the value's: it is read again as structure.
      if (this.from >= 0 && this.capture(buf, i, b)) continue;
      if (!WS.has(b)) this.structure(b, i);
    }
    if (this.from >= 0) {
      this.parts.push(Buffer.from(buf.subarray(this.from, n)));
      this.from = 0;
    }
  }

  /** The object read, once the whole file was fed. */
  end(): Record<string, unknown> {
    if (this.at !== 'end' || this.from >= 0) throw new Fallback();
    return this.out;
  }

  /** One byte inside a captured value; false when it ends a primitive without being part of it. */
  private capture(buf: Buffer, i: number, b: number): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.depth === 0 && !this.primitive) this.done(this.finish(buf, i + 1));
      }
      return true;
    }
    if (this.primitive) {
      if (b === COMMA || b === RBRACE || b === RBRACKET || WS.has(b)) {
        this.done(this.finish(buf, i));
        return false;
      }
      return true;
    }
    if (b === QUOTE) this.inString = true;
    else if (b === LBRACE || b === LBRACKET) this.depth++;
    else if ((b === RBRACE || b === RBRACKET) && --this.depth === 0) this.done(this.finish(buf, i + 1));
    return true;
  }

  /** One byte of structure (not whitespace, not inside a value): the next state, or a value's capture begun at `i`. */
  private structure(b: number, i: number): void {
    switch (this.at) {
      case 'start':
        if (b !== LBRACE) throw new Fallback();
        this.at = 'key';
        break;
      case 'key':
        if (b === RBRACE && Object.keys(this.out).length === 0) this.at = 'end';
        else if (b === QUOTE) this.startValue(b, i);
        else throw new Fallback();
        break;
      case 'colon':
        if (b !== COLON) throw new Fallback();
        this.at = 'value';
        break;
      case 'value':
        if (b === LBRACKET) (this.section = []), this.set(this.key, this.section), (this.at = 'element');
        else this.startValue(b, i);
        break;
      case 'element':
        if (b === RBRACKET && this.section!.length === 0) (this.section = undefined), (this.at = 'after');
        else this.startValue(b, i);
        break;
      case 'afterElement':
        if (b === COMMA) this.at = 'element';
        else if (b === RBRACKET) (this.section = undefined), (this.at = 'after');
        else throw new Fallback();
        break;
      case 'after':
        if (b === COMMA) this.at = 'key';
        else if (b === RBRACE) this.at = 'end';
        else throw new Fallback();
        break;
      case 'end':
        throw new Fallback();
    }
  }

  private startValue(b: number, i: number): void {
    this.from = i;
    this.depth = 0;
    this.primitive = false;
    if (b === QUOTE) this.inString = true;
    else if (b === LBRACE || b === LBRACKET) this.depth = 1;
    else this.primitive = true;
  }

  private finish(buf: Buffer, end: number): unknown {
    this.parts.push(buf.subarray(this.from, end));
    const text = Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    this.from = -1;
    try {
      return JSON.parse(text);
    } catch {
      throw new Fallback();
    }
  }

  private done(value: unknown): void {
    if (this.section) this.section.push(this.element(value)), (this.at = 'afterElement');
    else if (this.at === 'key') (this.key = value as string), (this.at = 'colon');
    else this.set(this.key, value), (this.at = 'after');
  }

  // As JSON.parse does: an own property, even for "__proto__".
  private set(k: string, value: unknown): void {
    Object.defineProperty(this.out, k, { value, writable: true, enumerable: true, configurable: true });
  }
}
