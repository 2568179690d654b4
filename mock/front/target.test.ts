import { describe, expect, it } from 'vitest';
import { normalizeTarget } from './target.ts';

describe('request targets are normalized as the engine would read them', () => {
  it('resolves dot segments, their percent-encoded forms and backslashes', () => {
    for (const [raw, url] of [
      ['/ext-api/v1/../../__mock/keys', '/__mock/keys'],
      ['/ext-api/v1/%2e%2e/%2E%2e/__mock/keys?x=1', '/__mock/keys?x=1'],
      ['/ext-api/v1/.%2e/./__mock/keys', '/ext-api/__mock/keys'],
      ['\\__mock\\keys', '/__mock/keys'],
      ['/ext-api/v1/patients?q=/../__mock', '/ext-api/v1/patients?q=/../__mock'],
      ['//evil.example/__mock/keys', '//evil.example/__mock/keys'],
    ])
      expect(normalizeTarget(raw), raw).toMatchObject({ ok: true, url });
  });
  it('reduces absolute-form to origin-form and keeps its authority', () => {
    expect(normalizeTarget('http://127.0.0.1:4010/ext-api/v1/../../__mock/keys')).toEqual({
      ok: true,
      url: '/__mock/keys',
      path: '/__mock/keys',
      authority: '127.0.0.1:4010',
    });
  });
  it('refuses anything else', () => {
    for (const raw of ['*', 'example.com:443', '', undefined, 'ftp://x/__mock', 'http://[bad/'])
      expect(normalizeTarget(raw).ok, String(raw)).toBe(false);
  });
});

describe('the plain-target shortcut answers what URL parsing answers', () => {
  // Every target here either takes the shortcut or is parsed: the result must be the parser's either way.
  const parsed = (t: string) => {
    const u = new URL(`http://front.invalid${t}`);
    return { ok: true, url: u.pathname + u.search, path: u.pathname };
  };
  it('for plain targets and for every near miss', () => {
    const targets = [
      '/',
      '/ext-api/v1/patients',
      '/ext-api/v1/patients/7281928374650192837',
      '/ext-api/v1/patients?page=3&limit=20',
      '/ext-api/v1/patients?search=Ann%20Lee&x=a/b?c',
      '/ext-api/v1/notes?x=..%2F..',
      "/ext-api/v1/patients/O'Brien;v=1,2*(x)~_-.$!@:=+&",
      '/ext-api/v1/patients?',
      "/ext-api/v1/patients?q=it's",
      '/ext-api/v1/patients?q=a b',
      '/ext-api/v1/patients?q="x"<y>',
      '/ext-api/v1/patients#frag',
      '/ext-api/v1/patients?q=1#frag',
      '/ext-api/v1/.well-known',
      '/ext-api/v1/./patients',
      '/ext-api/v1/../__mock/keys',
      '/ext-api/v1/patients/..',
      '/ext-api/v1/%2e%2e/__mock',
      '/ext-api/v1/pat%69ents',
      '/ext-api/v1/{id}',
      '/ext-api/v1/a`b|c^d',
      '/ext-api/v1/caf\u00e9',
      '//evil.example/__mock/keys',
      '/ext-api\\v1\\patients',
    ];
    for (const t of targets) expect(normalizeTarget(t), t).toEqual(parsed(t));
  });
});
