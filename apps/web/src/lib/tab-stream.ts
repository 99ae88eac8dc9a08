import type { EventSourceMessage } from 'eventsource-parser';
import { followEventStream } from './event-stream';

/**
 * The one live stream a signed-in tab keeps for what concerns its staff member wherever they are:
 * SOS alerts (`open`, `sos`) and news of their inbox (`inbox`). The banner, the control room and
 * the inbox each listen to it; it opens with the first listener and closes with the last, so a
 * tab holds one stream however many of them are shown (the streams per account are capped).
 */
type Listener = (event: EventSourceMessage) => void;

const listeners = new Set<Listener>();
let following: AbortController | null = null;

export function listenToTabStream(listener: Listener): () => void {
  listeners.add(listener);
  if (!following) {
    const controller = new AbortController();
    following = controller;
    followEventStream('/sos/stream', controller.signal, (event) => {
      for (const each of [...listeners]) each(event);
    });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && following) {
      following.abort();
      following = null;
    }
  };
}
