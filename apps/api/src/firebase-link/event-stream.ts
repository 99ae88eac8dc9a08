import { PassThrough, pipeline } from 'node:stream';
import { parser } from 'stream-json/parser.js';
import { pick } from 'stream-json/filters/pick.js';
import { streamObject } from 'stream-json/streamers/stream-object.js';

/**
 * Reads a Firebase event stream (Server-Sent Events, as "Streaming from the REST API" describes
 * them: `event: put` then `data: {"path": ..., "data": ...}`, an empty line ending each event).
 *
 * A stream's first event holds the whole followed location: for a node of a million trips, a
 * gigabyte on one line. An event whose data grows past LARGE_EVENT_CHARS is therefore not read
 * whole: its children are parsed one at a time as the bytes arrive (stream-json), and handed over
 * as `children`, so memory stays flat whatever the size of the node. Smaller events are parsed
 * whole.
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
 * A put or patch whose data line is too long to hold: the rest of the line is fed, as it arrives,
 * to a streaming parser whose `data` children are handed over. `finish`, called once the reader is
 * done with them, answers what followed the line (whether or not the children were all taken).
 */
function readLargeEvent(
  name: string,
  start: string,
  read: () => Promise<string | null>,
): { event: StreamEvent; finish: () => Promise<string> } {
  const prefix = LARGE_PREFIX.exec(start);
  const input = new PassThrough({ encoding: 'utf8' });
  let rest = '';
  const pump = (async () => {
    let piece: string | null = start;
    while (piece !== null) {
      const newline = piece.indexOf('\n');
      const text = newline < 0 ? piece : piece.slice(0, newline);
      // Once the reader stopped taking children (or the event is not readable), the rest of the
      // line is only skipped, so the next event is read where it begins.
      if (!input.destroyed && !input.writableEnded) await write(input, text);
      if (newline >= 0) {
        rest = piece.slice(newline + 1);
        break;
      }
      piece = await read();
    }
    input.end();
    return rest;
  })();
  if ((name !== 'put' && name !== 'patch') || !prefix) {
    input.destroy();
    const event: StreamEvent = { event: 'malformed', name: name || 'message', data: start.slice(0, 200) };
    return { event, finish: () => pump };
  }
  const path = JSON.parse(prefix[1]!) as string;
  // An error anywhere (the JSON damaged, the connection lost) ends the children with that error.
  const children = pipeline(
    input,
    parser.asStream(),
    pick.asStream({ filter: 'data' }),
    streamObject.asStream(),
    () => undefined,
  );
  pump.catch((error: unknown) => input.destroy(error as Error));
  const iterator = (children as AsyncIterable<Child>)[Symbol.asyncIterator]();
  return {
    event: { event: name, path, children: { [Symbol.asyncIterator]: () => iterator } },
    // Once the reader is done: the children it left are read past (a parse error ends them).
    finish: async () => {
      for (;;) {
        const next = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
        if (next.done) break;
      }
      input.destroy();
      return pump;
    },
  };
}

function write(stream: PassThrough, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) return resolve();
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
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
