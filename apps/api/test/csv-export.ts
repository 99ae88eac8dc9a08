import { expect } from 'vitest';
import type { TestApp } from './test-app';

/** The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (quoted) {
      if (character !== '"') field += character;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      record.push(field);
      field = '';
    } else if (character === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += character;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

export type CsvFile = {
  headers: string[];
  rows: Record<string, string>[];
  /** The header names in order and every record's cells under them. */
  records: string[][];
  raw: string;
};

/**
 * An export as its caller gets it: a 200 with the CSV headers, a byte-order mark, CRLF records of
 * as many cells as the header row.
 */
export async function fetchCsv(t: TestApp, url: string, headers: Record<string, string>): Promise<CsvFile> {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-disposition']).toMatch(
    /^attachment; filename="[a-z-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const raw = response.body;
  expect(raw.startsWith('\uFEFF')).toBe(true);
  expect(raw.endsWith('\r\n')).toBe(true);
  const [header, ...records] = parseCsv(raw.slice(1));
  for (const record of records) expect(record.length).toBe(header!.length);
  const rows = records.map((record) => Object.fromEntries(header!.map((name, i) => [name, record[i]!])));
  return { headers: header!, rows, records, raw };
}

/**
 * Every row a list answers a caller for a query, page after page (200 at a time), in list order:
 * what an export of the same query must hold.
 */
export async function fetchListIds(
  t: TestApp,
  request: { method?: 'GET' | 'POST'; url: string; query?: Record<string, string>; body?: object },
  headers: Record<string, string>,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const paging: Record<string, string | number> = { limit: 200, ...(cursor ? { cursor } : {}) };
    const response = await t.app.inject(
      request.method === 'POST'
        ? { method: 'POST', url: request.url, headers, payload: { ...request.body, ...paging } }
        : { method: 'GET', url: request.url, headers, query: { ...request.query, ...(paging as object) } },
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<{ data: Record<string, unknown>; nextCursor: string | null }>();
    ids.push(...Object.keys(page.data));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}
