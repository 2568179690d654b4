// The bench's baseline: Prism's plain mock alone (prism-http-server's createServer, as `prism mock` runs it), without
// the static mode's health front, so that no hop of ours flatters the ratios. Prints the line the bench waits for.
import { startStaticPrism } from '../mock/prism/static.ts';

const port = Number(process.argv[2] ?? 0);
const s = await startStaticPrism(port, '127.0.0.1');
console.log(`API http://127.0.0.1:${s.port}/ext-api/v1`);
