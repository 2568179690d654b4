// The health poller of bench/upstream-hostile.ts, in a process of its own: its event loop is neither the mock's it
// measures nor the bench's, which is busy being the client of the hostile cases. Every <interval> ms it sends GET to
// each URL it was given, all at the same tick, each poll timed from its start to its answer's end; a poll still out at the
// next tick does not delay that tick's. The parent asks ('take') for what was gathered since it last asked: per URL,
// the latencies (ms) of the polls answered since, and how many failed (no answer within TIMEOUT_MS, or an error).
// Usage (the bench forks it, with an IPC channel): node --import tsx bench/health-poller.ts <interval ms> <url>...
import http from 'node:http';

const TIMEOUT_MS = 5000;

export interface Polled {
  ms: number[];
  failed: number;
}

const [interval, ...urls] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
let gathered: Polled[] = urls.map(() => ({ ms: [], failed: 0 }));

function poll(i: number): void {
  const t0 = performance.now();
  // Counted where it ends: in the window its answer (or its failure) falls in.
  const failed = () => gathered[i]!.failed++;
  const req = http.get(urls[i]!, { agent, timeout: TIMEOUT_MS }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? gathered[i]!.ms.push(performance.now() - t0) : failed()));
    res.on('error', failed);
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', failed);
}

const timer = setInterval(() => {
  for (const i of urls.keys()) poll(i);
}, Number(interval));
process.on('message', (m) => {
  if (m !== 'take') return;
  process.send!(gathered);
  gathered = urls.map(() => ({ ms: [], failed: 0 }));
});
// The bench gone (or done): so is the poller.
process.on('disconnect', () => {
  clearInterval(timer);
  agent.destroy();
});
