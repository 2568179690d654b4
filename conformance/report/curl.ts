// A runnable curl for one request, with the key left as a shell variable so that pasting it never leaks one. The
// variable is read as ${VAR:?...}: unset, the shell stops with a message naming it instead of sending an empty key
// (which would get a 401, not the status the report claims). The report names every variable its lines read.
import type { SentRequest } from '../../judge/define.ts';
import { KEY_VARS, scopesOfVar } from '../run/keys.ts';
import type { CurlVariable } from '../run/model.ts';

export const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** What a key variable holds, e.g. "a key with scopes patients:read". */
function keyRole(name: string): string {
  if (name === KEY_VARS.main) return 'a key with full access (*)';
  if (name === KEY_VARS.otherOrg) return 'a key of another organization';
  if (name === KEY_VARS.expired) return 'an expired key';
  if (name === KEY_VARS.revoked) return 'a revoked key';
  const scopes = scopesOfVar(name);
  return scopes ? `a key with scopes ${scopes.join(',')}` : 'a key';
}

const keyRef = (name: string) => `\${${name}:?set ${name}: ${keyRole(name)}}`;

/** A command's prefix that passes the variable on, or stops the shell naming it when unset: NAME="${NAME:?set NAME: ...}". */
export const requiredVar = (name: string) => `${name}="${keyRef(name)}"`;

export function toCurl(req: SentRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, sq(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.toLowerCase() === 'content-type' && req.form) continue; // curl sets the multipart boundary
    if (req.keyVar && name.toLowerCase() === 'x-api-key') parts.push('-H', `"X-API-Key: ${keyRef(req.keyVar)}"`);
    else parts.push('-H', sq(`${name}: ${value}`));
  }
  if (req.form) {
    for (const [k, v] of Object.entries(req.form.fields)) parts.push('-F', sq(`${k}=${v}`));
    if (req.form.file) parts.push('-F', sq(`file=@${req.form.file.name};type=${req.form.file.type}`));
  } else if (req.bodyText !== undefined) parts.push('--data-raw', sq(req.bodyText));
  return parts.join(' ');
}

/** The variables these curl lines read, in first-seen order. */
export function variablesIn(curls: Array<string | undefined>): string[] {
  const names = new Set<string>();
  for (const c of curls) for (const m of (c ?? '').matchAll(/\$\{([A-Z][A-Z0-9_]*):\?/g)) names.add(m[1]!);
  return [...names];
}

/** How to set each variable: from the key file the run wrote (--mock), else with the key the run was given. */
export function howToSet(names: string[], keyFile?: string): CurlVariable[] {
  return names.map((name) => ({ name, holds: keyRole(name), set: keyFile ? `. ${sq(keyFile)}` : `export ${name}='<${keyRole(name)}>'` }));
}

/** A shell file that sets the variables (`. file`): the mock's keys, never a deployment's. */
export const keyFileText = (vars: Map<string, string>, names: string[]) =>
  `${names
    .filter((n) => vars.has(n))
    .map((n) => `export ${n}=${sq(vars.get(n)!)}`)
    .join('\n')}\n`;
