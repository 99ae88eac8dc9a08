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
    expect(pagedRows(data)).toEqual({ rows: ['B', 'A', 'C'], total: 3 });
  });

  it('is empty before the first page', () => {
    expect(pagedRows(undefined)).toEqual({ rows: [], total: 0 });
  });
});
