/**
 * Reads a Server-Sent Events stream as the web app does (fetch, then the text in blocks), calling
 * `onEvent` with each message's event name and data; ends quietly when the stream ends or is
 * aborted. Enough for the benchmarks' own streams (one `data:` line a message).
 */
export async function readServerSentEvents(
  response: Response,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
        const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
        if (event && data !== undefined) onEvent(event, data);
      }
    }
  } catch {
    // Aborted at the end of the run.
  }
}
