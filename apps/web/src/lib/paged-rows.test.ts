import { describe, expect, it } from 'vitest';
import { pagedRows } from './paged-rows';

describe('pagedRows', () => {
  it('joins the pages in order and takes the total from the first', () => {
    const data: { pages: { data: Record<string, string>; total: number }[] } = {
      pages: [
        { data: { b: 'B', a: 'A' }, total: 3 },
        { data: { c: 'C' }, total: 3 },
      ],
    };
    expect(pagedRows(data)).toEqual({ rows: ['B', 'A', 'C'], total: 3, totalCapped: false });
  });

  it('is empty before the first page', () => {
    expect(pagedRows(undefined)).toEqual({ rows: [], total: 0, totalCapped: false });
  });

  it("says when the first page's count was capped", () => {
    expect(pagedRows({ pages: [{ data: {}, total: 10_000, totalCapped: true }] })).toMatchObject({
      total: 10_000,
      totalCapped: true,
    });
  });
});
