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
