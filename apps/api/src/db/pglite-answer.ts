import { messages, protocol, types, type QueryOptions, type Results } from '@electric-sql/pglite';

/** PGlite's parsers of values by type. */
export type Parsers = Record<number, (text: string, type?: number) => unknown>;

/** An array type: the type of its elements (oid) and its own (typarray). */
export type ArrayType = { oid: number; typarray: number };

/** PGlite's parsers, arrays of the database's types included, as PGlite makes them at start. */
export function parsersOf(arrays: ArrayType[]): Parsers {
  const parsers: Parsers = { ...types.parsers };
  for (const { oid, typarray } of arrays) {
    parsers[typarray] = (text) => types.arrayParser(text, parsers[oid]!, typarray);
  }
  return parsers;
}

/** The codes of PostgreSQL's messages that the worker and the reader look for. */
export const CODES = {
  ROW_DESCRIPTION: 0x54, // 'T'
  DATA_ROW: 0x44, // 'D'
  COMMAND_COMPLETE: 0x43, // 'C'
  ERROR: 0x45, // 'E'
  NOTIFICATION: 0x41, // 'A'
  BIND_COMPLETE: 0x32, // '2'
  READY: 0x5a, // 'Z', followed by the transaction's state
} as const;
const { ROW_DESCRIPTION, DATA_ROW, COMMAND_COMPLETE, ERROR } = CODES;

/** The commands whose tag ends in the rows they changed, as PGlite counts them. */
const CHANGING = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * PostgreSQL's answer to one statement, as the worker sends it (pglite-worker.ts), read into what
 * PGlite's `query` answers: its rows with the caller's parsers and row mode, its fields, command
 * and counts; or its error, with the statement attached as PGlite attaches it.
 *
 * PGlite's own reading copied every value into a buffer of its own before decoding it, and merged
 * the caller's parsers into a copy of its hundreds for every query: on a page of 50 trips that was
 * a quarter of the server's thread. Here a value is decoded where it lies, and each column's parser
 * is found once per answer.
 */
export function readAnswer<T>(
  answer: Uint8Array,
  parsers: Parsers,
  query: { text: string; params?: unknown[]; options?: QueryOptions },
): Results<T> {
  const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  const arrays = query.options?.rowMode === 'array';
  const own = query.options?.parsers;
  let fields: { name: string; dataTypeID: number }[] = [];
  let reads: (((text: string, type?: number) => unknown) | undefined)[] = [];
  const rows: unknown[] = [];
  let result: Results<T> | undefined;
  for (let offset = 0; offset + 5 <= bytes.length;) {
    const code = bytes[offset]!;
    const end = offset + 1 + bytes.readUInt32BE(offset + 1);
    let at = offset + 5;
    if (code === ERROR) throw errorOf(answer, query);
    if (code === ROW_DESCRIPTION) {
      const count = bytes.readUInt16BE(at);
      at += 2;
      fields = new Array(count);
      for (let i = 0; i < count; i++) {
        const nul = bytes.indexOf(0, at);
        const name = textOf(bytes, at, nul);
        // After the name: the table's oid (4), the column's number (2), then the type's oid.
        fields[i] = { name, dataTypeID: bytes.readUInt32BE(nul + 7) };
        at = nul + 19;
      }
      reads = fields.map(({ dataTypeID }) => own?.[dataTypeID] ?? parsers[dataTypeID]);
    } else if (code === DATA_ROW) {
      const count = bytes.readUInt16BE(at);
      at += 2;
      const values: unknown[] | Record<string, unknown> = arrays ? new Array(count) : {};
      for (let i = 0; i < count; i++) {
        const length = bytes.readInt32BE(at);
        at += 4;
        let value: unknown = null;
        if (length >= 0) {
          const text = textOf(bytes, at, at + length);
          const read = reads[i];
          value = read ? read(text, fields[i]!.dataTypeID) : text;
          at += length;
        }
        if (arrays) (values as unknown[])[i] = value;
        else if (fields[i]!.name === '__proto__') {
          // A column of that name is a property of the row, as PGlite makes it, not its prototype.
          Object.defineProperty(values, '__proto__', {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else (values as Record<string, unknown>)[fields[i]!.name] = value;
      }
      rows.push(values);
    } else if (code === COMMAND_COMPLETE) {
      const tag = bytes.toString('utf8', at, end - 1).split(' ');
      const command = tag[0]!;
      const rowCount = parseInt(tag[tag.length - 1]!, 10);
      result = { rows: rows as T[], fields, command, affectedRows: CHANGING.has(command) ? rowCount : 0 };
      if (!Number.isNaN(rowCount)) result.rowCount = rowCount;
    }
    offset = end;
  }
  return result ?? { rows: [], fields: [], affectedRows: 0 };
}

/**
 * The text from `start` to `end`, decoded as PGlite decodes it (TextDecoder), which drops a byte
 * order mark at the start.
 */
function textOf(bytes: Buffer, start: number, end: number): string {
  const marked =
    end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
  return bytes.toString('utf8', marked ? start + 3 : start, end);
}

/** The answer's error, read by PGlite's own parser (errors are few), as PGlite throws it. */
function errorOf(answer: Uint8Array, query: { text: string; params?: unknown[]; options?: QueryOptions }) {
  let failure: messages.DatabaseError | undefined;
  new protocol.Parser().parse(answer, (reply) => {
    if (!failure && reply instanceof messages.DatabaseError) failure = reply;
  });
  return Object.assign(failure!, { query: query.text, params: query.params, queryOptions: query.options });
}
