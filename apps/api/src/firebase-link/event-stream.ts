/**
 * Reads a Firebase event stream (Server-Sent Events, as "Streaming from the REST API" describes
 * them: `event: put` then `data: {"path": ..., "data": ...}`, an empty line ending each event).
 *
 * A stream's first event holds the whole followed location: for a node of a million trips, a
 * gigabyte on one line. An event whose data grows past LARGE_EVENT_CHARS is therefore not read
 * whole: its children are cut out one at a time as the bytes arrive, each parsed by JSON.parse,
 * and handed over as `children`, so memory stays flat whatever the size of the node. Smaller
 * events are parsed whole.
 */

export const LARGE_EVENT_CHARS = 1 << 20;

export type Child = { key: string; value: unknown };

export type StreamEvent =
  | { event: 'put' | 'patch'; path: string; data: unknown }
  /** A put or patch too large to hold: its data's children, one at a time (consume them all). */
  | { event: 'put' | 'patch'; path: string; children: AsyncIterable<Child> }
  | { event: 'keep-alive' }
  | { event: 'cancel'; reason: unknown }
  | { event: 'auth_revoked'; reason: unknown }
  /** An event whose data is not what the protocol says: skipped and counted, never fatal. */
  | { event: 'malformed'; name: string; data: string };

const LARGE_PREFIX = /^\{\s*"path"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"data"\s*:\s*\{/;

/** The events of a stream's body, in order; `onData` is called whenever bytes arrive. */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  onData: () => void,
): AsyncGenerator<StreamEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  /** Where the search for the end of the line goes on from. */
  let searched = 0;
  let name = '';
  let data: string[] = [];
  let ended = false;
  const read = async (): Promise<string | null> => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return null;
    }
    onData();
    return value;
  };
  try {
    for (;;) {
      const newline = buffer.indexOf('\n', searched);
      if (newline < 0) {
        searched = buffer.length;
        if (buffer.length > LARGE_EVENT_CHARS && buffer.startsWith('data:') && data.length === 0) {
          const large = readLargeEvent(name, buffer.slice(buffer.startsWith('data: ') ? 6 : 5), read);
          buffer = '';
          searched = 0;
          yield large.event;
          buffer = await large.finish();
          name = '';
          data = [];
          continue;
        }
        if (ended) return;
        const more = await read();
        if (more === null) return;
        buffer += more;
        continue;
      }
      let line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      searched = 0;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (name || data.length > 0) yield readEvent(name || 'message', data.join('\n'));
        name = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A put or patch whose data line is too long to hold: the rest of the line is read as it arrives,
 * and the `data` object's members are cut out of it one at a time (`membersOf`) and each parsed
 * by JSON.parse. `finish`, called once the reader is done with them, reads past the rest of the
 * line (whether or not the children were all taken) and answers what followed it.
 */
function readLargeEvent(
  name: string,
  start: string,
  read: () => Promise<string | null>,
): { event: StreamEvent; finish: () => Promise<string> } {
  const prefix = LARGE_PREFIX.exec(start);
  let rest = '';
  // The pieces of the line, the first one whole (the prefix in it), as they arrive.
  async function* pieces(): AsyncGenerator<string> {
    let piece: string | null = start;
    while (piece !== null) {
      const newline = piece.indexOf('\n');
      if (newline >= 0) {
        rest = piece.slice(newline + 1);
        yield piece.slice(0, newline);
        return;
      }
      yield piece;
      piece = await read();
    }
    throw new Error('the stream ended in the middle of an event');
  }
  const source = pieces();
  const finish = async () => {
    for (;;) {
      const next = await source.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done) return rest;
    }
  };
  if ((name !== 'put' && name !== 'patch') || !prefix) {
    const event: StreamEvent = { event: 'malformed', name: name || 'message', data: start.slice(0, 200) };
    return { event, finish };
  }
  const path = JSON.parse(prefix[1]!) as string;
  const children = membersOf(source, prefix[0].length);
  return { event: { event: name, path, children }, finish };
}

/**
 * The members of a JSON object whose text arrives in pieces, from just inside its opening brace
 * (`skip` characters into the first piece): each member's text is found by its depth outside
 * strings, and parsed by JSON.parse. A member that does not parse, or an object that ends
 * before its closing brace, ends the members with an error.
 */
async function* membersOf(source: AsyncIterator<string>, skip: number): AsyncGenerator<Child> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  for (;;) {
    const next = await source.next();
    if (next.done) throw new Error('the event ended before its data did');
    const piece = next.value;
    let from = skip;
    skip = 0;
    const found: Child[] = [];
    let closed = false;
    for (let i = from; i < piece.length; i++) {
      const code = piece.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === 0x5c) escaped = true;
        else if (code === 0x22) inString = false;
      } else if (code === 0x22) inString = true;
      else if (code === 0x7b || code === 0x5b) depth++;
      else if ((code === 0x7d || code === 0x5d) && depth > 0) depth--;
      else if (depth === 0 && (code === 0x2c || code === 0x7d)) {
        parts.push(piece.slice(from, i));
        const member = parseMember(parts.join(''));
        if (member) found.push(member);
        parts = [];
        from = i + 1;
        if (code === 0x7d) {
          closed = true;
          break;
        }
      }
    }
    if (!closed) parts.push(piece.slice(from));
    yield* found;
    if (closed) return;
  }
}

/** `"key": value` as a child; null for nothing but white space (an empty object). */
function parseMember(text: string): Child | null {
  if (text.trim() === '') return null;
  const parsed = JSON.parse(`{${text}}`) as Record<string, unknown>;
  for (const key in parsed) return { key, value: parsed[key] };
  throw new Error('a member of the event’s data could not be read');
}

/** An event read whole. */
export function readEvent(name: string, text: string): StreamEvent {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  switch (name) {
    case 'put':
    case 'patch': {
      const body = data as { path?: unknown; data?: unknown } | null;
      if (!body || typeof body !== 'object' || typeof body.path !== 'string' || !('data' in body)) {
        return { event: 'malformed', name, data: text.slice(0, 200) };
      }
      if (
        name === 'patch' &&
        (body.data === null || typeof body.data !== 'object' || Array.isArray(body.data))
      ) {
        return { event: 'malformed', name, data: text.slice(0, 200) };
      }
      return { event: name, path: body.path, data: body.data };
    }
    case 'keep-alive':
      return { event: 'keep-alive' };
    case 'cancel':
      return { event: 'cancel', reason: data };
    case 'auth_revoked':
      return { event: 'auth_revoked', reason: data };
    default:
      return { event: 'malformed', name, data: text.slice(0, 200) };
  }
}
