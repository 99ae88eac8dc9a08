import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { authorizedFetch } from './api-client';

/** How long to wait before each new try after the stream drops (the last repeats). */
export const STREAM_RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/**
 * Reads a Server-Sent Events stream under /api with fetch (so that the bearer token goes along)
 * and keeps it open: when it drops, it is opened again with backoff, until `signal` aborts.
 * `onStatus` hears 'live' once the stream answers and 'down' each time it drops.
 */
export function followEventStream(
  path: string,
  signal: AbortSignal,
  onEvent: (event: EventSourceMessage) => void,
  onStatus: (status: 'live' | 'down') => void = () => undefined,
): void {
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener('abort', () => clearTimeout(retryTimer));

  const connect = async () => {
    try {
      // At low priority: the stream never ends, so at fetch's usual high priority the browser, and
      // whatever watches the page load (Lighthouse waited out its 45 s limit on every signed-in
      // screen), counted it among the page's own loads for as long as the page was open.
      const response = await authorizedFetch(path, {
        signal,
        priority: 'low',
        headers: { accept: 'text/event-stream' },
      });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      attempt = 0;
      onStatus('live');
      const parser = createParser({ onEvent });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // Dropped or refused: tried again below.
    }
    if (signal.aborted) return;
    onStatus('down');
    retryTimer = setTimeout(
      () => void connect(),
      STREAM_RETRY_MS[Math.min(attempt++, STREAM_RETRY_MS.length - 1)],
    );
  };
  void connect();
}
