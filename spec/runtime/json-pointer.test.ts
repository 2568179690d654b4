// RFC 6901 pointers and $ref following over the bundled spec's JSON.
import { describe, expect, it } from 'vitest';
import { deref, escapeToken, nodesAlong, pointerTokens, resolvePointer, type JsonObject } from './json-pointer.ts';

const doc: JsonObject = {
  paths: { '/patients/{id}': { get: { responses: { '200': { $ref: '#/components/responses/Ok' } } } } },
  components: {
    responses: { Ok: { $ref: '#/components/responses/Real' }, Real: { description: 'ok' }, Loop: { $ref: '#/components/responses/Loop' } },
  },
  'a~b': [10, 20],
};

describe('JSON pointer', () => {
  it('escapes and decodes tokens (~1 before ~0)', () => {
    expect(escapeToken('/patients/{id}')).toBe('~1patients~1{id}');
    expect(escapeToken('a~b')).toBe('a~0b');
    expect(pointerTokens('#/paths/~1patients~1{id}/get')).toEqual(['paths', '/patients/{id}', 'get']);
    expect(pointerTokens('/~01')).toEqual(['~1']);
    expect(pointerTokens('')).toEqual([]);
    expect(() => pointerTokens('paths')).toThrow('not a JSON pointer: paths');
  });

  it('resolves objects and arrays, strictly', () => {
    expect(resolvePointer(doc, '/a~0b/1')).toBe(20);
    expect(resolvePointer(doc, '#')).toBe(doc);
    expect(resolvePointer(doc, '/a~0b/2')).toBeUndefined();
    expect(resolvePointer(doc, '/a~0b/01')).toBeUndefined();
    expect(resolvePointer(doc, '/paths/constructor')).toBeUndefined();
    expect(resolvePointer(doc, 'other.json#/x')).toBeUndefined();
    expect(nodesAlong(doc, '/a~0b/0')).toEqual([doc, [10, 20], 10]);
  });

  it('follows $ref chains, and stops on a loop or a dangling ref', () => {
    expect(deref(doc, resolvePointer(doc, '/paths/~1patients~1{id}/get/responses/200'))).toEqual({ description: 'ok' });
    expect(deref(doc, { $ref: '#/components/responses/Loop' })).toEqual({ $ref: '#/components/responses/Loop' });
    expect(deref(doc, { $ref: '#/nowhere' })).toBeUndefined();
  });
});
