// A hostile upstream for the --upstream proxy's tests, run in a process of its own (so that the work of being hostile,
// writing an endless answer, does not share the mock's event loop it measures): an endless answer, decompression bombs
// (gzip, brotli, deflate), a body at one byte a tick, an X-Mock-Fault of its own, escape sequences, and a request that
// never gets an answer, counting the ones whose client went away (GET /closed); also (bench/upstream-hostile.ts) the
// largest answers the proxy takes whole: 31 MB under its 32 MB cap (/huge, and as a 500: /huge-error), an answer
// declaring 64 MB (/declared), and a list page of 1.9 MB (GET /patients: valid, or with ?invalid a violation in every
// record; gzip when the request accepts it). Loopback only; prints its origin. Test-only: `node --import tsx
// mock/testing/hostile-upstream.ts`.
import { createServer, type ServerResponse } from 'node:http';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

/** Each bomb decodes to this many zeros. */
const BOMB_DECODED = 64 * 1024 * 1024;
const zeros = Buffer.alloc(BOMB_DECODED);
const bombs = {
  gzip: gzipSync(zeros, { level: 1 }),
  br: brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }),
  deflate: deflateSync(zeros, { level: 1 }),
};
const json = {
  'content-type': 'application/json',
  'x-ratelimit-limit': '9',
  'x-ratelimit-remaining': '8',
  'x-ratelimit-reset': '1795713368',
};
const CHUNK = Buffer.alloc(64 * 1024, 'a');
/** Under the proxy's 32 MB cap: read whole, passed on, too large to judge. */
const HUGE = Buffer.alloc(31 * 1024 * 1024, 'a');

/** A list page of patients of about 1.9 MB, under the judge's 2 MB: every record read; `invalid`, each breaks a rule. */
function bigPage(invalid: boolean): Buffer {
  const data = Array.from({ length: 3300 }, (_, i) => ({
    id: String(1_000_000_000_000_000_000n + BigInt(i)),
    name: `Ada Lovelace ${i}`,
    first_name: 'Ada',
    last_name: `Lovelace ${i}`,
    date_of_birth: invalid ? 19710822 : '1971-08-22',
    gender: 'unspecified',
    phone: '+1-555-0261',
    email: `ada.lovelace.${i}@example.org`,
    address: { line1: '571 Pine St', city: 'Madison', state: 'WI', postal_code: '53703', country: 'US' },
    mrn: `MRN-${i}`,
    created_at: '2026-11-01T23:12:00.000Z',
    pronouns: null,
    notes: 'Prefers morning appointments.',
    consent: true,
    external_id: `ehr-patient-${i}`,
    provider_id: 'b6a275e2-0992-48f8-98d4-6d3d66a3cb8a',
    organization_id: '17363a48-3616-4135-b01e-f7b06d18660b',
  }));
  return Buffer.from(JSON.stringify({ data, meta: { page: 1, limit: 3300, total_pages: 1 } }));
}
const pages = { valid: bigPage(false), invalid: bigPage(true) };
const gzipped = { valid: gzipSync(pages.valid), invalid: gzipSync(pages.invalid) };
let closed = 0;

function endless(res: ServerResponse) {
  res.writeHead(200, json);
  const more = () => {
    while (!res.destroyed && res.write(CHUNK));
  };
  res.on('drain', more);
  more();
}

const server = createServer((req, res) => {
  const path = req.url ?? '';
  if (path === '/closed') return res.end(String(closed));
  if (path.endsWith('/endless')) return endless(res);
  if (path.endsWith('/huge')) return res.writeHead(200, json).end(HUGE);
  if (path.endsWith('/huge-error')) return res.writeHead(500, json).end(HUGE);
  // 64 MB declared, 64 KB sent, then nothing: past the cap before its first byte.
  if (path.endsWith('/declared')) return res.writeHead(200, { ...json, 'content-length': String(BOMB_DECODED) }).write(CHUNK);
  const page = /\/patients(\?invalid)?$/.exec(path);
  if (page) {
    const which = page[1] ? 'invalid' : 'valid';
    if (!/gzip/.test(req.headers['accept-encoding'] ?? '')) return res.writeHead(200, json).end(pages[which]);
    return res.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end(gzipped[which]);
  }
  const bomb = /\/bomb-(gzip|br|deflate)$/.exec(path)?.[1] as keyof typeof bombs | undefined;
  if (bomb) return res.writeHead(200, { ...json, 'content-encoding': bomb }).end(bombs[bomb]);
  if (path.endsWith('/drip')) {
    res.writeHead(200, json);
    const t = setInterval(() => res.write(' '), 50);
    return res.on('close', () => clearInterval(t));
  }
  if (path.endsWith('/providers')) return res.writeHead(200, { ...json, 'x-mock-fault': 'reset' }).end('{"data":[],"meta":{}}');
  if (path.endsWith('/hang')) return req.on('close', () => !res.headersSent && closed++);
  res.writeHead(404, json).end(`{"error":"no \u001b[31m${path}"}`);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
