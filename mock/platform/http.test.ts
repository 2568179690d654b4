import { describe, expect, it } from 'vitest';
import { pageBody, pageJson } from './http.ts';

describe('page bodies', () => {
  it('pageJson writes the bytes JSON.stringify(pageBody(...)) writes', () => {
    const rows = [
      { id: '1', name: 'A "quoted" name' },
      { id: '2', name: null },
    ];
    for (const [data, q, total] of [
      [rows, { page: 1, limit: 20 }, 2],
      [[], { page: 3, limit: 5 }, 0],
      [rows.slice(1), { page: 2, limit: 1 }, 2],
    ] as const)
      expect(
        pageJson(
          data.map((r) => JSON.stringify(r)),
          q,
          total,
        ),
      ).toBe(JSON.stringify(pageBody(data, q, total)));
  });
});
