// What a hostile or heavy document costs the running mock: the built binary in default mode (Prism in front) is sent
// one DOCX at a time; meanwhile /__mock/health is probed back to back and the process's resident memory (VmRSS) is
// sampled every 20 ms, from upload until the document is `completed` or `failed`. Documents: the 200 MiB
// DOCX bomb, a 300 MiB one, a PDF whose content stream inflates to 200 MiB, and the largest DOCX the limits accept
// (word/document.xml just under the XML bound, which mammoth parses whole).
// Usage: npm run build && npx tsx bench/extraction.ts
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTRACTION_LIMITS, MiB } from '../mock/features/documents/extract-limits.ts';
import { makeDocxBomb, makePdfBomb } from '../mock/features/documents/sample-files.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const proc = spawn(process.execPath, [join(ROOT, 'dist/mock/cli.js'), '--port', '0', '--time-scale', '0.01'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
proc.stdout.on('data', (d) => (out += d));
proc.stderr.on('data', (d) => (out += d));
const seen = async (re: RegExp) => {
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const m = out.match(re);
    if (m) return m[1]!;
  }
  throw new Error(`not ready: ${out}`);
};
const url = await seen(/API\s+(http:\/\/\S+)/);
const control = await seen(/control\s+(http:\/\/\S+)/);
const headers = { 'x-api-key': await seen(/(crk_all_\w+)/) };
const patient = (await (await fetch(`${url}/patients`, { headers })).json()).data[0].id as string;
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) / 1024;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function measure(label: string, bytes: Uint8Array, name: string) {
  const base = rssMb();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await fetch(`${control}/health`, { signal: AbortSignal.timeout(60_000) });
      await r.arrayBuffer();
      latencies.push(performance.now() - t);
    }
  })();
  const t0 = performance.now();
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const up = await fetch(`${url}/patients/${patient}/documents`, { method: 'POST', headers, body: form });
  const id = (await up.json()).data.id as string;
  let doc: { status: string; extraction_error: string | null } | undefined;
  while (doc?.status !== 'failed' && doc?.status !== 'completed') {
    await new Promise((r) => setTimeout(r, 50));
    doc = (
      (await (await fetch(`${url}/patients/${patient}/documents`, { headers })).json()).data as Array<typeof doc & { id: string }>
    ).find((d) => d.id === id);
  }
  const ms = performance.now() - t0;
  done = true;
  await probe;
  clearInterval(sampler);
  console.log(
    `| ${label} | ${(bytes.length / 1024).toFixed(0)} KB | ${doc.status}: ${doc.extraction_error ?? ''} | ${(ms / 1000).toFixed(2)} s | ${base.toFixed(0)} → ${peak.toFixed(0)} MB | ` +
      `${latencies.length} | ${pct(latencies, 50).toFixed(1)} / ${pct(latencies, 99).toFixed(1)} / ${Math.max(...latencies).toFixed(1)} ms |`,
  );
}

console.log('| document | upload | outcome | upload → terminal | RSS before → peak | health probes | health p50 / p99 / max |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
await measure('DOCX, document.xml inflates to 200 MiB', makeDocxBomb(200), 'bomb.docx');
await measure('DOCX, document.xml inflates to 300 MiB', makeDocxBomb(300), 'bomb300.docx');
await measure('PDF, content stream inflates to 200 MiB', makePdfBomb(200), 'bomb.pdf');
await measure(
  `largest accepted DOCX (XML ${(EXTRACTION_LIMITS.docxXmlBytes / MiB - 0.5).toFixed(1)} MiB)`,
  makeDocxBomb(EXTRACTION_LIMITS.docxXmlBytes / MiB - 0.5),
  'big.docx',
);
console.log(
  `\nprocess alive after all: ${proc.exitCode === null}; load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
proc.kill('SIGKILL');
