// A runnable curl for one request, with the key left as a shell variable so that pasting it never leaks one.
import type { SentRequest } from './http.ts';

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function toCurl(req: SentRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, sq(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.toLowerCase() === 'content-type' && req.form) continue; // curl sets the multipart boundary
    if (req.keyVar && name.toLowerCase() === 'x-api-key') parts.push('-H', `"X-API-Key: $${req.keyVar}"`);
    else parts.push('-H', sq(`${name}: ${value}`));
  }
  if (req.form) {
    for (const [k, v] of Object.entries(req.form.fields)) parts.push('-F', sq(`${k}=${v}`));
    if (req.form.file) parts.push('-F', sq(`file=@${req.form.file.name};type=${req.form.file.type}`));
  } else if (req.bodyText !== undefined) parts.push('--data-raw', sq(req.bodyText));
  return parts.join(' ');
}
