import { describe, expect, it } from 'vitest';
import { checkDestination, PRIVATE_FLAG, type ResolvedAddress, type Resolver } from './destination.ts';

// Names resolve through this table only: no real DNS lookup happens in these tests.
const DNS: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'rebind.example.com': ['::ffff:127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'empty.example.com': [],
  'dev.internal': ['192.168.10.20'],
};
const resolve: Resolver = async (host) => {
  const list = DNS[host];
  if (!list) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

type Row = [url: string, ok: boolean, why: string];

// Without --allow-private-webhooks: the real service's rules.
const STRICT: Row[] = [
  // scheme and syntax
  ['http://8.8.8.8/hook', false, 'https'],
  ['ftp://8.8.8.8/hook', false, 'https'],
  ['https://user:secret@8.8.8.8/hook', false, 'credentials'],
  ['not a url', false, 'absolute URL'],
  // IPv4 special ranges
  ['https://127.0.0.1/hook', false, 'loopback'],
  ['https://127.255.255.254/', false, 'loopback'],
  ['https://10.0.0.1/', false, 'private'],
  ['https://172.16.5.4/', false, 'private'],
  ['https://172.31.255.255/', false, 'private'],
  ['https://192.168.1.1/', false, 'private'],
  ['https://100.64.0.1/', false, 'CGNAT'],
  ['https://100.127.255.254/', false, 'CGNAT'],
  ['https://169.254.1.1/', false, 'link-local'],
  ['https://169.254.169.254/latest/meta-data/', false, 'cloud metadata'],
  ['https://100.100.100.200/', false, 'cloud metadata'],
  ['https://0.0.0.0/', false, 'unspecified'],
  ['https://224.0.0.1/', false, 'multicast'],
  ['https://239.255.255.250/', false, 'multicast'],
  ['https://255.255.255.255/', false, 'broadcast'],
  ['https://240.0.0.1/', false, 'reserved'],
  ['https://192.0.2.1/', false, 'documentation'],
  ['https://198.51.100.7/', false, 'documentation'],
  ['https://203.0.113.9/', false, 'documentation'],
  ['https://198.18.0.1/', false, 'reserved'],
  // odd IPv4 spellings (normalised by the WHATWG URL parser)
  ['https://2130706433/', false, 'loopback'],
  ['https://0177.0.0.1/', false, 'loopback'],
  ['https://0x7f.1/', false, 'loopback'],
  ['https://127.1/', false, 'loopback'],
  ['https://0x0A.0.0.1/', false, 'private'],
  ['https://3232235777/', false, 'private'], // 192.168.1.1
  ['https://0251.0376.0251.0376/', false, 'cloud metadata'], // 169.254.169.254 in octal
  ['https://%31%32%37.0.0.1/', false, 'loopback'], // percent-encoded
  ['https://0/', false, 'unspecified'],
  ['https://127.0.0.1./', false, 'loopback'], // trailing dot
  // IPv6 special ranges
  ['https://[::1]/', false, 'loopback'],
  ['https://[::]/', false, 'unspecified'],
  ['https://[fe80::1]/', false, 'link-local'],
  ['https://[fc00::1]/', false, 'unique local'],
  ['https://[fd12:3456::1]/', false, 'unique local'],
  ['https://[fd00:ec2::254]/', false, 'cloud metadata'],
  ['https://[ff02::1]/', false, 'multicast'],
  ['https://[2001:db8::1]/', false, 'documentation'],
  ['https://[100::1]/', false, 'discard'],
  ['https://[fec0::1]/', false, 'site-local'],
  // IPv6 forms embedding an IPv4 address
  ['https://[::ffff:127.0.0.1]/', false, 'IPv4-mapped address embedding 127.0.0.1'],
  ['https://[::ffff:10.0.0.1]/', false, 'IPv4-mapped address embedding 10.0.0.1'],
  ['https://[::ffff:169.254.169.254]/', false, 'cloud metadata'],
  ['https://[::ffff:0:127.0.0.1]/', false, 'IPv4-translated'],
  ['https://[::127.0.0.1]/', false, 'IPv4-compatible'],
  ['https://[::8.8.8.8]/', false, 'IPv4-compatible'],
  ['https://[64:ff9b::127.0.0.1]/', false, 'NAT64 address embedding 127.0.0.1'],
  ['https://[64:ff9b::c0a8:1]/', false, 'NAT64 address embedding 192.168.0.1'],
  ['https://[64:ff9b:1::a00:1]/', false, 'local-use NAT64'],
  ['https://[2002:7f00:1::1]/', false, '6to4 address embedding 127.0.0.1'],
  ['https://[2002:a9fe:a9fe::]/', false, '6to4 address embedding 169.254.169.254'],
  // Teredo: 2001:0:<server v4>:<flags>:<port>:<client v4, bit-inverted>
  ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', false, 'Teredo address embedding 10.0.0.1'],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', false, 'Teredo address embedding 127.0.0.1'],
  ['https://[2001:0:a00:1:8000:63bf:3fff:fdd2]/', false, 'Teredo (server) address embedding 10.0.0.1'],
  // names: every address must pass
  ['https://localhost/hook', false, 'localhost resolves to 127.0.0.1'],
  ['https://mixed.example.com/', false, 'resolves to 10.0.0.5'],
  ['https://rebind.example.com/', false, 'IPv4-mapped address embedding 127.0.0.1'],
  ['https://metadata.example.com/', false, 'cloud metadata'],
  ['https://empty.example.com/', false, 'no address'],
  ['https://nx.example.com/', false, 'could not be resolved'],
  // public receivers pass
  ['https://8.8.8.8/hook', true, ''],
  ['https://1.1.1.1:8443/x?y=1', true, ''],
  ['https://93.184.216.34/', true, ''],
  ['https://100.63.255.255/', true, ''], // just below CGNAT
  ['https://100.128.0.1/', true, ''], // just above CGNAT
  ['https://172.32.0.1/', true, ''], // just above 172.16/12
  ['https://11.0.0.1/', true, ''],
  ['https://134744072/', true, ''], // 8.8.8.8 in decimal
  ['https://[2606:4700:4700::1111]/', true, ''],
  ['https://[2001:4860:4860::8888]/hook', true, ''],
  ['https://[::ffff:8.8.8.8]/', true, ''],
  ['https://[64:ff9b::808:808]/', true, ''],
  ['https://[2002:808:808::1]/', true, ''],
  ['https://[2001:0:808:808:8000:63bf:f7f7:f7f7]/', true, ''], // Teredo: server and client 8.8.8.8
  ['https://hooks.example.com/events', true, ''],
];

// With --allow-private-webhooks: local receivers over http or https; special-purpose ranges stay refused.
const PRIVATE: Row[] = [
  ['http://127.0.0.1:3000/hook', true, ''],
  ['http://localhost:3000/hook', true, ''],
  ['http://[::1]:8080/', true, ''],
  ['https://10.0.0.1/', true, ''],
  ['http://192.168.1.50:9000/', true, ''],
  ['http://dev.internal/', true, ''],
  ['http://[::ffff:127.0.0.1]:3000/', true, ''],
  ['http://2130706433:3000/', true, ''],
  ['https://8.8.8.8/', true, ''],
  ['http://8.8.8.8/', false, 'https for public hosts'],
  ['http://mixed.example.com/', false, 'https for public hosts'],
  ['https://169.254.169.254/', false, 'cloud metadata'],
  ['http://[fd00:ec2::254]/', false, 'cloud metadata'],
  ['http://0.0.0.0:3000/', false, 'unspecified'],
  ['http://[64:ff9b::7f00:1]/', false, 'NAT64'],
  ['http://224.0.0.1/', false, 'multicast'],
];

describe('destination rules: EVT-026, EVT-039 (HTTPS, public hosts, checked after resolution)', () => {
  it('has a table of at least 40 destinations', () => {
    expect(STRICT.length + PRIVATE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(STRICT)('without the flag: %s -> ok=%s (%s)', async (url, ok, why) => {
    const r = await checkDestination(url, { allowPrivate: false, resolve });
    if (ok) expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toContain(why);
        expect(r.reason).toContain(PRIVATE_FLAG);
      }
    }
  });

  it.each(PRIVATE)('with the flag: %s -> ok=%s (%s)', async (url, ok, why) => {
    const r = await checkDestination(url, { allowPrivate: true, resolve });
    if (ok) expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    else {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toContain(why);
        expect(r.reason).toContain(PRIVATE_FLAG);
      }
    }
  });

  it('never resolves an IP literal', async () => {
    const never: Resolver = async (h) => {
      throw new Error(`resolver called for ${h}`);
    };
    for (const [url] of STRICT.filter(([u]) => /\/\/(\[|[\d.]+[:/]|0x)/.test(u))) {
      const r = await checkDestination(url, { allowPrivate: false, resolve: never });
      if (!r.ok) expect(r.reason).not.toContain('resolver called');
    }
  });

  it('returns the approved addresses of a name (delivery connects to these only)', async () => {
    const r = await checkDestination('https://hooks.example.com/x', { allowPrivate: false, resolve });
    expect(r.ok && r.addresses.map((a) => a.address)).toEqual(DNS['hooks.example.com']);
  });

  it('marks a failed lookup as transient and a refused range as not', async () => {
    const nx = await checkDestination('https://nx.example.com/', { allowPrivate: false, resolve });
    const lo = await checkDestination('https://127.0.0.1/', { allowPrivate: false, resolve });
    expect(!nx.ok && nx.transient).toBe(true);
    expect(!lo.ok && lo.transient).toBeFalsy();
  });

  it('rejects non-string input without throwing', async () => {
    for (const bad of [undefined, null, 42, {}, '', 'x'.repeat(3000)])
      expect(await checkDestination(bad, { allowPrivate: false, resolve })).toMatchObject({ ok: false });
  });
});
