// Which Host names the API answers, as Vite's dev server does (server.allowedHosts): a page of evil.example whose
// name its owner points at 127.0.0.1 (DNS rebinding) is same-origin with the mock, so CORS cannot stop it from reading
// patients with the seed's keys; only the Host header tells that page apart. IP literals, `localhost` and `*.localhost`
// always pass (no one else can point them at this machine), so does the --host value; `--allowed-host <name>` adds
// names (`.example.test`: that name and every name under it) and `--allowed-host all` turns the check off.
// Names compare in the URL parser's form: lower case, punycode, IPv4 in dotted decimal, IPv6 in brackets.

export const ANY_HOST = 'all';

/** A Host header's (or a name's) host name as the URL parser writes it, without a final dot; undefined when it is none. */
export function hostnameOf(authority: string): string | undefined {
  try {
    const name = new URL(`http://${authority}/`).hostname;
    return name.endsWith('.') ? name.slice(0, -1) : name;
  } catch {
    return undefined;
  }
}

/** An --allowed-host value as kept (`all`, a host name, or `.name` for it and the names under it); undefined when malformed. */
export function parseAllowedHost(text: string): string | undefined {
  if (text === ANY_HOST) return text;
  const sub = text.startsWith('.');
  const bare = sub ? text.slice(1) : text;
  if (!/^[^\s/?#@:[\]\\]+$/.test(bare)) return undefined;
  const name = hostnameOf(bare);
  return name && name.length > 0 && !name.startsWith('.') ? `${sub ? '.' : ''}${name}` : undefined;
}

const isIpLiteral = (name: string) => name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name);

/** Whether a host name (hostnameOf's form) may be answered: `boundHost` is --host, `allowed` the --allowed-host values. */
export function hostAllowance(o: { boundHost?: string; allowed?: readonly string[] }): (name: string) => boolean {
  const allowed = o.allowed ?? [];
  if (allowed.includes(ANY_HOST)) return () => true;
  const bound = o.boundHost === undefined ? undefined : hostnameOf(o.boundHost.includes(':') ? `[${o.boundHost}]` : o.boundHost);
  const names = new Set(allowed.filter((a) => !a.startsWith('.')));
  const suffixes = allowed.filter((a) => a.startsWith('.'));
  return (name) =>
    isIpLiteral(name) ||
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === bound ||
    names.has(name) ||
    suffixes.some((s) => name === s.slice(1) || name.endsWith(s));
}

/** Why a Host the API does not answer is refused (the journal's reason; the 403 adds the flag). */
export const hostRefusalReason = (host: string) =>
  `Host ${JSON.stringify(host)} is not allowed: the mock answers localhost, IP addresses and its --host value (DNS rebinding protection)`;
