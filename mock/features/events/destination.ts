// Destination rules for webhook receivers (source: Events > Delivery rules 5): HTTPS, public hosts only, checked at
// registration and again before each delivery, after DNS resolution. Address ranges come from ipaddr.js; the WHATWG
// URL parser turns odd IPv4 spellings (2130706433, 0177.0.0.1, 0x7f.1, 127.1) into dotted quads first.
import ipaddr from 'ipaddr.js';

export const PRIVATE_FLAG = '--allow-private-webhooks';

/** A resolved address of a host name, as dns.promises.lookup({ all: true }) returns it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/**
 * A host name's addresses. `null`: this runtime cannot resolve names (a page has no DNS): the name is then taken
 * for what it says, a public host, and only its scheme, an IP literal or a `localhost` name are checked.
 */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[] | null>;

export interface DestinationOptions {
  /** --allow-private-webhooks: loopback and private receivers, also over plain http. */
  allowPrivate: boolean;
  /** Host names to addresses: the runtime's (Node: resolve-node.ts); tests inject one so no real lookup happens. */
  resolve: Resolver;
}

export type Destination =
  | { ok: true; url: URL; addresses: readonly ResolvedAddress[] }
  /** transient: the name could not be resolved now (worth a retry before a delivery); otherwise a rule refused it. */
  | { ok: false; reason: string; transient?: boolean };

/**
 * public: any receiver; local: only with the flag (a developer's own machine or network);
 * forbidden: never, not even with the flag (metadata services, unroutable or special-purpose ranges).
 */
type Category = 'public' | 'local' | 'forbidden';
interface Classification {
  category: Category;
  /** Why, for messages: e.g. "loopback", "6to4 address embedding 10.0.0.1 (private)". */
  label: string;
}

// Cloud metadata services: refused even with the flag, since nothing a developer runs lives there.
const METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack (IPv4)
  '169.254.170.2', // AWS ECS task metadata
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure wire server
  'fd00:ec2::254', // AWS (IPv6)
]);

// Ranges a developer's receiver may live in when the flag is given.
const LOCAL_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const LOCAL_V6 = new Set(['loopback', 'uniqueLocal']);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const V4_LABELS: Record<string, string> = {
  carrierGradeNat: 'CGNAT (100.64.0.0/10)',
  private: 'private (RFC 1918)',
  linkLocal: 'link-local',
  reserved: 'reserved or documentation range',
  broadcast: 'broadcast',
  as112: 'AS112 (reserved for DNS sinks)',
  amt: 'AMT relay anycast (reserved)',
};
const V6_LABELS: Record<string, string> = {
  uniqueLocal: 'unique local (fc00::/7)',
  linkLocal: 'link-local',
  deprecatedSiteLocal: 'site-local (deprecated)',
  reserved: 'reserved or documentation range',
  discard: 'discard-only (100::/64)',
  benchmarking: 'benchmarking range',
  rfc6052: 'local-use NAT64 (64:ff9b:1::/48)',
};

function classifyV4(a: ipaddr.IPv4): Classification {
  const text = a.toString();
  if (METADATA.has(text)) return { category: 'forbidden', label: 'cloud metadata' };
  const range = a.range();
  if (range === 'unicast') return { category: 'public', label: 'public' };
  return { category: LOCAL_V4.has(range) ? 'local' : 'forbidden', label: V4_LABELS[range] ?? range };
}

function v4From(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** A transition address reaches the IPv4 host inside it: classify that host. */
function embedded(kind: string, v4: ipaddr.IPv4, transit: boolean): Classification {
  const inner = classifyV4(v4);
  if (inner.category === 'public') return { category: 'public', label: `${kind} address of a public host` };
  // Through NAT64, 6to4 or Teredo a private inner address is never the developer's own machine.
  return { category: transit ? 'forbidden' : inner.category, label: `${kind} address embedding ${v4} (${inner.label})` };
}

function classifyV6(a: ipaddr.IPv6): Classification {
  if (METADATA.has(a.toString())) return { category: 'forbidden', label: 'cloud metadata' };
  const p = a.parts;
  const range = a.range();
  switch (range) {
    case 'ipv4Mapped':
      return embedded('IPv4-mapped', a.toIPv4Address(), false);
    case 'rfc6145':
      return embedded('IPv4-translated', v4From(p[6]!, p[7]!), true);
    case '6to4':
      return embedded('6to4', v4From(p[1]!, p[2]!), true);
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client address stored bit-inverted (RFC 4380).
      const server = embedded('Teredo (server)', v4From(p[2]!, p[3]!), true);
      if (server.category !== 'public') return server;
      return embedded('Teredo', v4From(~p[6]! & 0xffff, ~p[7]! & 0xffff), true);
    }
    case 'rfc6052':
      if (a.match(NAT64_WELL_KNOWN)) return embedded('NAT64', v4From(p[6]!, p[7]!), true);
      break;
    case 'unicast':
      // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291): never routed; ipaddr.js reports it as unicast.
      if (p.slice(0, 6).every((x) => x === 0)) return { category: 'forbidden', label: `IPv4-compatible address (${v4From(p[6]!, p[7]!)})` };
      if (!a.match(GLOBAL_UNICAST_V6)) return { category: 'forbidden', label: 'unassigned (outside 2000::/3)' };
      return { category: 'public', label: 'public' };
  }
  return { category: LOCAL_V6.has(range) ? 'local' : 'forbidden', label: V6_LABELS[range] ?? range };
}

/** Classifies an IP literal ("10.0.0.1", "::1", "[::1]"); undefined when it is not one. */
function classifyAddress(text: string): Classification | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return classifyV4(ipaddr.IPv4.parse(bare));
  if (ipaddr.IPv6.isValid(bare)) return classifyV6(ipaddr.IPv6.parse(bare));
  return undefined;
}

const flagHint = `start the mock with ${PRIVATE_FLAG} to allow loopback and private receivers over http or https`;

function refuse(reason: string): Destination {
  return { ok: false, reason };
}

/** Checks a receiver URL: syntax, scheme, then every address the host resolves to. Never throws. */
export async function checkDestination(raw: unknown, opts: DestinationOptions): Promise<Destination> {
  if (typeof raw !== 'string' || raw.length === 0) return refuse(`url must be a non-empty string (${flagHint})`);
  if (raw.length > 2048) return refuse(`url is longer than 2048 characters (${flagHint})`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(`url is not an absolute URL: ${JSON.stringify(raw)} (${flagHint})`);
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http')
    return refuse(
      `url must use https, not ${scheme} (plain http is accepted only for loopback and private receivers with ${PRIVATE_FLAG})`,
    );
  if (url.username || url.password) return refuse(`url must not carry credentials; send a secret in a static header instead (${flagHint})`);
  if (scheme === 'http' && !opts.allowPrivate)
    return refuse(`url must use https; plain http is accepted only for loopback and private receivers with ${PRIVATE_FLAG}`);

  const host = url.hostname;
  let addresses: ResolvedAddress[];
  const literal = classifyAddress(host);
  if (literal) {
    const bare = host.replace(/^\[|\]$/g, '');
    addresses = [{ address: bare, family: host.startsWith('[') ? 6 : 4 }];
  } else {
    try {
      const found = await opts.resolve(host);
      // No DNS here (a page): a name stands for a public host, so http to it is refused below.
      if (found === null)
        return scheme === 'http'
          ? refuse(
              `url must use https for public hosts; plain http is accepted only for loopback and private receivers with ${PRIVATE_FLAG}`,
            )
          : { ok: true, url, addresses: [] };
      addresses = [...found];
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      return { ok: false, transient: true, reason: `host ${host} could not be resolved (${code}); ${flagHint}` };
    }
    if (addresses.length === 0) return refuse(`host ${host} resolves to no address (${flagHint})`);
  }

  let allLocal = true;
  for (const { address } of addresses) {
    const c = classifyAddress(address);
    const where = address === host.replace(/^\[|\]$/g, '') ? address : `${host} resolves to ${address}, which`;
    if (!c) return refuse(`${where} is not an IP address (${flagHint})`);
    if (c.category === 'forbidden')
      return refuse(`${where} is ${c.label}: webhook receivers must be public hosts; refused even with ${PRIVATE_FLAG}`);
    if (c.category === 'local' && !opts.allowPrivate)
      return refuse(`${where} is ${c.label}: webhook receivers must be public hosts (${flagHint})`);
    if (c.category === 'public') allLocal = false;
  }
  if (scheme === 'http' && !allLocal)
    return refuse(
      `url must use https for public hosts; plain http is accepted only for loopback and private receivers with ${PRIVATE_FLAG}`,
    );
  return { ok: true, url, addresses };
}
