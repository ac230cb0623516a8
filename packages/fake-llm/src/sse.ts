import type { ServerResponse } from 'node:http';

/** One server-sent event; `event` is the `event:` line (Anthropic, OpenAI Responses), absent for Chat. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** How a stream is paced and when it must stop. */
export interface StreamPacing {
  /** Delay before each event after the first, in ms. */
  chunkDelayMs: number;
  /** Aborted when the server closes: pending delays end and nothing more is written. */
  signal: AbortSignal;
}

/**
 * Writes `events` as an SSE stream and ends the response. Stops quietly when the client goes away or
 * the server closes; never rejects.
 */
export async function writeSse(
  res: ServerResponse,
  events: readonly SseEvent[],
  pacing: StreamPacing,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const [index, event] of events.entries()) {
    if (index > 0 && pacing.chunkDelayMs > 0) await delay(pacing.chunkDelayMs, pacing.signal);
    if (res.destroyed || res.writableEnded || pacing.signal.aborted) return;
    res.write(`${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`);
  }
  res.end();
}

/** Resolves after `ms`, or at once when `signal` aborts; the timer never holds the process open. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
