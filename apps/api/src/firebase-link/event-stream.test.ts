import { describe, expect, it } from 'vitest';
import { LARGE_EVENT_CHARS, readEventStream, type Child, type StreamEvent } from './event-stream';

/** A stream body delivering the text in pieces of `size` bytes, as a network would. */
function body(text: string, size = 16_384): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A node of trips large enough to be read child by child. */
function bigNode(count: number) {
  const node: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    node[`-Ntrip${String(i).padStart(7, '0')}`] = {
      title: `Rider ${i} "quoted" ✓`,
      note: 'x'.repeat(900),
      // What a reader cutting the data into children must not mistake for its structure.
      tricky: 'a}b{c,"d\\"e][, \\',
      messages: [{ message: '}}, {"x": 1}', sender: 'customer' }, [], {}],
    };
  }
  node['key with "quotes", and }'] = { title: 'odd key' };
  return node;
}

async function collect(
  stream: AsyncGenerator<StreamEvent>,
  take: (children: AsyncIterable<Child>) => Promise<unknown> = async (children) => {
    const all: Child[] = [];
    for await (const child of children) all.push(child);
    return all;
  },
) {
  const seen: unknown[] = [];
  for await (const item of stream) {
    if ('children' in item)
      seen.push({ event: item.event, path: item.path, children: await take(item.children) });
    else seen.push(item);
  }
  return seen;
}

describe('reading a Firebase event stream', () => {
  it('reads events split anywhere, with either line ending, and comments', async () => {
    const text =
      ': a comment\r\n' +
      event('put', { path: '/', data: { a: 1 } }).replaceAll('\n', '\r\n') +
      event('patch', { path: '/a', data: { b: 2 } }) +
      'event: keep-alive\ndata: null\n\n' +
      event('cancel', 'Permission denied.') +
      'event: put\ndata: {not json\n\n';
    const seen = await collect(readEventStream(body(text, 7), () => {}));
    expect(seen).toEqual([
      { event: 'put', path: '/', data: { a: 1 } },
      { event: 'patch', path: '/a', data: { b: 2 } },
      { event: 'keep-alive' },
      { event: 'cancel', reason: 'Permission denied.' },
      { event: 'malformed', name: 'put', data: '{not json' },
    ]);
  });

  it('hands over the children of an event too large to hold, then reads on', async () => {
    const node = bigNode(3000);
    const text =
      event('put', { path: '/', data: node }) + event('put', { path: '/-Nnew', data: { title: 'Next' } });
    expect(text.length).toBeGreaterThan(2 * LARGE_EVENT_CHARS);
    let chunks = 0;
    const seen = await collect(readEventStream(body(text), () => chunks++));
    expect(seen).toHaveLength(2);
    const [large, next] = seen as [{ event: string; path: string; children: Child[] }, unknown];
    expect(large.event).toBe('put');
    expect(large.path).toBe('/');
    expect(large.children).toHaveLength(3001);
    expect(Object.fromEntries(large.children.map(({ key, value }) => [key, value]))).toEqual(node);
    expect(large.children[1234]).toEqual({ key: '-Ntrip0001234', value: node['-Ntrip0001234'] });
    expect(next).toEqual({ event: 'put', path: '/-Nnew', data: { title: 'Next' } });
    expect(chunks).toBeGreaterThan(100);
  });

  it('reads past the children a reader leaves, and past a damaged large event', async () => {
    const damaged = event('put', { path: '/', data: bigNode(2000) }).replace(
      '"-Ntrip0000005"',
      '"-Ntrip0000005" oops',
    );
    const text =
      event('put', { path: '/', data: bigNode(2000) }) +
      damaged +
      event('put', { path: '/-Nafter', data: { title: 'After' } });
    const seen = await collect(
      readEventStream(body(text), () => {}),
      async (children) => {
        const taken: string[] = [];
        try {
          for await (const child of children) {
            taken.push(child.key);
            if (taken.length === 10) break;
          }
        } catch (error) {
          return { failed: (error as Error).message.length > 0, taken: taken.length };
        }
        return { taken: taken.length };
      },
    );
    expect(seen[0]).toMatchObject({ children: { taken: 10 } });
    // Damaged JSON ends the children with an error (those parsed before it may be among them).
    expect(seen[1]).toMatchObject({ children: { failed: true } });
    expect((seen[1] as { children: { taken: number } }).children.taken).toBeLessThanOrEqual(5);
    expect(seen[2]).toEqual({ event: 'put', path: '/-Nafter', data: { title: 'After' } });
  });
});
