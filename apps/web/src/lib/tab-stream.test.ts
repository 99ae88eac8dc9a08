import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenToDriverPositions, listenToTabStream, type TabStreamStatus } from './tab-stream';

/**
 * What the server sees of a tab: the streams it opens, with the positions asked for, and those
 * still open. A stream answers `open`, names in `refused` the drivers of `refuse` it was asked for
 * (as the server does for a driver outside the caller's scope), then each other driver's current
 * position, and stays open until aborted.
 */
function stubServer(refuse: string[] = []) {
  const requests: { path: string; signal: AbortSignal }[] = [];
  const message = (event: string, data: unknown) =>
    new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = decodeURIComponent(url);
      requests.push({ path, signal: init.signal! });
      const asked = /drivers=([^&]+)/.exec(path)?.[1]?.split(',') ?? [];
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(message('open', []));
          const refused = asked.filter((id) => refuse.includes(id));
          if (refused.length > 0) controller.enqueue(message('refused', refused));
          for (const id of asked.filter((each) => !refuse.includes(each)))
            controller.enqueue(
              message('location', { driverId: id, lat: 19, long: 72, at: '2026-11-29T10:00:00.000Z' }),
            );
          init.signal?.addEventListener('abort', () => controller.error(new DOMException('', 'AbortError')));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }),
  );
  return {
    requests,
    open: () => requests.filter((request) => !request.signal.aborted).map((request) => request.path),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => vi.unstubAllGlobals());

describe("the tab's one stream", () => {
  it('is one stream for every listener, asking again when the positions wanted change', async () => {
    const server = stubServer();
    const banner = vi.fn();
    const stopBanner = listenToTabStream(banner);
    const stopInbox = listenToTabStream(() => {});
    await settle();
    expect(server.open()).toEqual(['/api/sos/stream']);
    expect(banner).toHaveBeenCalledWith(expect.objectContaining({ event: 'open' }));

    // Two alert maps of one moment: one stream for both drivers, opened once.
    const stopA = listenToTabStream(() => {}, { driverIds: ['b-driver'] });
    const stopB = listenToTabStream(() => {}, { driverIds: ['a-driver'] });
    await settle();
    expect(server.open()).toEqual(['/api/sos/stream?drivers=a-driver,b-driver']);
    expect(server.requests).toHaveLength(2);

    // A map of a driver already on the stream joins it, and has its position at once.
    const positions: unknown[] = [];
    const stopC = listenToDriverPositions('a-driver', (position) => positions.push(position));
    await settle();
    expect(server.requests).toHaveLength(2);
    expect(positions).toEqual([{ lat: 19, long: 72, at: '2026-11-29T10:00:00.000Z' }]);

    stopA();
    stopB();
    stopC();
    const stopFleet = listenToTabStream(() => {}, { fleet: true });
    await settle();
    expect(server.open()).toEqual(['/api/sos/stream?fleet=true']);

    stopFleet();
    stopBanner();
    stopInbox();
    await settle();
    expect(server.open()).toEqual([]);
  });

  it('closes as the page is left, and opens again if the browser shows the page again', async () => {
    const server = stubServer();
    const events: string[] = [];
    const stop = listenToTabStream((event) => events.push(event.event ?? ''), { fleet: true });
    await settle();
    expect(server.open()).toEqual(['/api/sos/stream?fleet=true']);

    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    await settle();
    expect(server.open()).toEqual([]);

    events.length = 0;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await settle();
    expect(server.open()).toEqual(['/api/sos/stream?fleet=true']);
    // A stream of its own start: the fleet map loads the whole fleet again on `open`.
    expect(events).toContain('open');

    stop();
    await settle();
    expect(server.open()).toEqual([]);
  });

  it('goes on without a driver the server refuses, whose map is told the stream is down for it', async () => {
    const server = stubServer(['gone-driver']);
    const gone: TabStreamStatus[] = [];
    const kept: TabStreamStatus[] = [];
    const positions: unknown[] = [];
    const stopBanner = listenToTabStream(() => {});
    const stopGone = listenToDriverPositions(
      'gone-driver',
      () => {},
      (status) => gone.push(status),
    );
    const stopKept = listenToDriverPositions(
      'kept-driver',
      (position) => positions.push(position),
      (status) => kept.push(status),
    );
    await settle();
    expect(server.requests.map((request) => request.path)).toContain(
      '/api/sos/stream?drivers=gone-driver,kept-driver',
    );
    expect(server.open()).toEqual(['/api/sos/stream?drivers=kept-driver']);
    expect(gone.at(-1)).toBe('down');
    expect(kept.at(-1)).toBe('live');
    expect(positions.length).toBeGreaterThan(0);
    stopGone();
    stopKept();
    stopBanner();
    await settle();
    expect(server.open()).toEqual([]);
  });
});
