// A hostile upstream for the --upstream proxy's tests, run in a process of its own (so that the work of being hostile,
// writing an endless answer, does not share the mock's event loop it measures): an endless answer, decompression bombs
// (gzip, brotli, deflate), a body at one byte a tick, an X-Mock-Fault of its own, escape sequences, and a request that
// never gets an answer, counting the ones whose client went away (GET /closed). Loopback only; prints its origin.
// Test-only: `node --import tsx mock/testing/hostile-upstream.ts`.
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
