import { createReadStream, statSync } from 'node:fs';

/** One record of the Realtime Database export: `{section}/{key}` and its value, whatever its shape. */
export type ExportRecord = { section: string; key: string; value: unknown } | DamagedRecord;
/** A record whose text is not JSON: reported, and the import goes on. */
export type DamagedRecord = { section: string; key: string; damaged: string };

export type ExportReading = {
  records: AsyncGenerator<ExportRecord>;
  /** The file's size and how much of it has been read so far, for progress. */
  size: number;
  bytesRead: () => number;
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf];
/**
 * The largest record read: a driver with years of history is a few megabytes. A record of 200 MB
 * (a damaged or hostile export) took the import past its heap and ended it halfway.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** How many backslashes stand right before `end`, not looking before `start`. */
function backslashesBefore(chunk: Buffer, end: number, start: number): number {
  let count = 0;
  for (let k = end - 1; k >= start && chunk[k] === BACKSLASH; k--) count++;
  return count;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A file that is not one whole JSON object, with the byte at which it stops being one. */
export class ExportStructureError extends Error {
  constructor(
    readonly byte: number,
    problem: string,
  ) {
    super(`at byte ${byte}: ${problem}`);
  }
}

/**
 * Cuts the export's text into its second-level records (driver/{uid}, trips/{pushId}...) without
 * parsing them: only quotes, escapes and brackets are followed, byte by byte. Each record's text is
 * then parsed alone by JSON.parse. This reads about ten times faster than a token-by-token parser
 * (docs/decisions/014-firebase-import.md), and memory holds one record, however large the file.
 * Structural bytes are all ASCII, so a multi-byte character cut between two chunks is harmless.
 */
export class ExportSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether the container open at depth 1 and 2 is an array. */
  private readonly isArray = [false, false, false];
  private expectKey = false;
  private expectValue = false;
  private index = 0;
  private section = '';
  private key = '';
  /** A key being read (at depth 1 or 2): its bytes so far. */
  private keyPieces: Buffer[] | null = null;
  private keyFrom = 0;
  /** A record being read: its bytes so far, and whether it is a bare value (no brackets). */
  private valuePieces: Buffer[] | null = null;
  private valueFrom = 0;
  private bare = false;
  /** The record's size so far; past MAX_RECORD_BYTES its bytes are no longer kept. */
  private valueBytes = 0;
  /** Bytes of the file before the chunk being read, for the offset an error names. */
  private offset = 0;
  /** Whether the export's object was opened, and closed (nothing but spaces may follow). */
  private opened = false;
  private closed = false;
  /** The sections met so far, in the file's order, and how many records each holds. */
  readonly sections = new Map<string, number>();

  constructor(
    private readonly wanted: (section: string) => boolean,
    /** Each record's text, or null for one larger than MAX_RECORD_BYTES (not kept). */
    private readonly emit: (section: string, key: string, text: Buffer | null) => void,
    private readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {}

  push(chunk: Buffer): void {
    this.keyFrom = 0;
    this.valueFrom = 0;
    const length = chunk.length;
    let i = 0;
    if (this.inString) i = this.skipString(chunk, 0);
    for (; i < length; i++) {
      const c = chunk[i]!;
      if (c === QUOTE) {
        if (this.depth === 0) this.refuseOutside(i);
        if (this.depth === 2 && this.expectValue) this.startValue(i, c);
        if (this.expectKey && this.depth <= 2 && !this.valuePieces) {
          this.expectKey = false;
          this.keyPieces = [];
          this.keyFrom = i;
        }
        this.inString = true;
        i = this.skipString(chunk, i + 1) - 1;
        continue;
      }
      // Inside a record only brackets matter; everything else is skipped quickly.
      if (
        this.depth > 2 &&
        c !== OPEN_OBJECT &&
        c !== OPEN_ARRAY &&
        c !== CLOSE_OBJECT &&
        c !== CLOSE_ARRAY
      ) {
        continue;
      }
      if (isSpace(c)) continue;
      if (this.depth === 0) {
        // A byte order mark may open the file.
        if (!this.opened && this.offset + i < 3 && c === BOM[this.offset + i]) continue;
        if (c !== OPEN_OBJECT || this.opened) this.refuseOutside(i);
        this.opened = true;
      }
      if (this.depth === 2 && this.expectValue) this.startValue(i, c);
      this.structural(chunk, i, c);
      if (this.depth === 0) this.closed = true;
    }
    if (this.keyPieces) this.keyPieces.push(chunk.subarray(this.keyFrom));
    if (this.valuePieces) this.keepValue(chunk.subarray(this.valueFrom));
    this.offset += length;
  }

  /**
   * Says whether the file held one whole JSON object: a file cut short (in a record, a string or
   * between two) ends inside it, and one with something after it (garbage, a second copy) was
   * refused as it was read. Throws an ExportStructureError naming the byte where it breaks.
   */
  finish(): void {
    if (!this.opened) throw new ExportStructureError(this.offset, 'the file holds no JSON object');
    if (!this.closed || this.depth !== 0) {
      const where = this.section
        ? ` (in ${this.section}${this.depth > 1 && this.key ? `/${this.key}` : ''})`
        : '';
      throw new ExportStructureError(
        this.offset,
        `the file ends before its JSON object does${where}: cut short?`,
      );
    }
  }

  private refuseOutside(i: number): never {
    throw new ExportStructureError(
      this.offset + i,
      this.closed
        ? 'more follows the end of the JSON object (two copies, or something else, joined?)'
        : 'the file does not start with a JSON object',
    );
  }

  /**
   * Moves past the string being read, from `from`: answers the index after its closing quote, or
   * the chunk's length when it goes on in the next chunk. A quote after an odd number of
   * backslashes is part of the string.
   */
  private skipString(chunk: Buffer, from: number): number {
    let start = from;
    if (this.escaped) {
      this.escaped = false;
      start++;
    }
    let quote = chunk.indexOf(QUOTE, start);
    while (quote !== -1 && backslashesBefore(chunk, quote, start) % 2 === 1) {
      quote = chunk.indexOf(QUOTE, quote + 1);
    }
    if (quote === -1) {
      this.escaped = backslashesBefore(chunk, chunk.length, start) % 2 === 1;
      return chunk.length;
    }
    this.inString = false;
    if (this.keyPieces) this.endKey(chunk, quote + 1);
    return quote + 1;
  }

  private structural(chunk: Buffer, i: number, c: number): void {
    switch (c) {
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.depth++;
        if (this.depth <= 2) {
          this.isArray[this.depth] = c === OPEN_ARRAY;
          this.expectKey = c === OPEN_OBJECT;
          if (this.depth === 2) {
            this.index = 0;
            this.expectValue = c === OPEN_ARRAY;
          }
        }
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (this.depth === 2 && this.bare) this.endValue(chunk, i);
        this.depth--;
        if (this.depth === 2 && this.valuePieces) this.endValue(chunk, i + 1);
        break;
      case COLON:
        if (this.depth === 2) this.expectValue = true;
        break;
      case COMMA:
        if (this.depth === 2 && this.bare) this.endValue(chunk, i);
        if (this.depth <= 2) {
          if (!this.isArray[this.depth]) this.expectKey = true;
          else if (this.depth === 2) {
            this.index++;
            this.expectValue = true;
          }
        }
        break;
    }
  }

  private startValue(i: number, c: number): void {
    this.expectValue = false;
    if (this.isArray[2]) this.key = String(this.index);
    this.sections.set(this.section, (this.sections.get(this.section) ?? 0) + 1);
    if (!this.wanted(this.section)) return;
    this.valuePieces = [];
    this.valueBytes = 0;
    this.valueFrom = i;
    this.bare = c !== OPEN_OBJECT && c !== OPEN_ARRAY;
  }

  /** Keeps a piece of the record being read, unless the record is too large to be one. */
  private keepValue(piece: Buffer): void {
    this.valueBytes += piece.length;
    if (this.valueBytes > this.maxRecordBytes) this.valuePieces = [];
    else this.valuePieces!.push(piece);
  }

  private endValue(chunk: Buffer, end: number): void {
    this.keepValue(chunk.subarray(this.valueFrom, end));
    const pieces = this.valuePieces!;
    this.valuePieces = null;
    this.bare = false;
    if (this.valueBytes > this.maxRecordBytes) return this.emit(this.section, this.key, null);
    // The pieces are views of the chunks: copied before the next chunk replaces them.
    this.emit(this.section, this.key, pieces.length === 1 ? Buffer.from(pieces[0]!) : Buffer.concat(pieces));
  }

  private endKey(chunk: Buffer, end: number): void {
    const pieces = this.keyPieces!;
    pieces.push(chunk.subarray(this.keyFrom, end));
    this.keyPieces = null;
    const key = String(JSON.parse(Buffer.concat(pieces).toString('utf8')));
    if (this.depth === 1) {
      this.section = key;
      if (!this.sections.has(key)) this.sections.set(key, 0);
    } else this.key = key;
  }
}

/**
 * Reads the Realtime Database export as a stream of its second-level records. Records of sections
 * `wanted` refuses are skipped without being parsed.
 */
export function readDatabaseExport(path: string, wanted: (section: string) => boolean): ExportReading {
  const size = statSync(path).size;
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });

  async function* records(): AsyncGenerator<ExportRecord> {
    const ready: ExportRecord[] = [];
    const splitter = new ExportSplitter(wanted, (section, key, text) => {
      if (text === null) {
        ready.push({ section, key, damaged: `larger than ${MAX_RECORD_BYTES / 1024 / 1024} MB, not read` });
        return;
      }
      try {
        ready.push({ section, key, value: JSON.parse(text.toString('utf8')) as unknown });
      } catch (error) {
        ready.push({ section, key, damaged: `not readable JSON (${(error as Error).message})` });
      }
    });
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        splitter.push(chunk);
        for (const record of ready) yield record;
        ready.length = 0;
      }
      splitter.finish();
    } finally {
      file.destroy();
    }
  }

  return { records: records(), size, bytesRead: () => file.bytesRead };
}

/** A section of the export (driver, trips...) and the number of records it holds. */
export type ExportSection = { name: string; records: number };

/**
 * Reads the whole export once without parsing its records, and throws an ExportStructureError when
 * it is not one whole JSON object (cut short, with garbage or a second copy after it): such a file
 * is refused before anything is written. Answers its sections in the file's order.
 */
export async function checkDatabaseExport(path: string): Promise<ExportSection[]> {
  const splitter = new ExportSplitter(
    () => false,
    () => {},
  );
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) splitter.push(chunk);
  } finally {
    file.destroy();
  }
  splitter.finish();
  return [...splitter.sections].map(([name, records]) => ({ name, records }));
}
