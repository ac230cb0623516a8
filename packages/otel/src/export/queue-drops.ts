import type { DropCounter } from './drop-counter.js';
import type { HeldTraces } from './held-traces.js';
import { type DeliveryOutcome, DROPPED } from './queued-trace.js';
import type { SenderOptions } from './sender-types.js';

/** Drops a trace that ended after `shutdown()` (reason `shutdown`); returns its ticket. */
export function dropAfterShutdown(drops: DropCounter, traceId: string | undefined): Promise<DeliveryOutcome> {
  drops.add('shutdown', 1, 'A trace ended after shutdown() and was not sent', idOf(traceId));
  return DROPPED;
}

/** Drops the newest trace because the queue is full (reason `queue-full`), saying what it holds; returns its ticket. */
export function dropQueueFull(
  drops: DropCounter,
  held: HeldTraces,
  options: Pick<SenderOptions, 'maxQueueTraces' | 'maxQueueBytes'>,
  paused: boolean,
  traceId: string | undefined,
): Promise<DeliveryOutcome> {
  const { maxQueueTraces, maxQueueBytes } = options;
  drops.add(
    'queue-full',
    1,
    `Queue full (${held.count} traces, ${held.bytes} bytes held; maxQueueTraces ${maxQueueTraces}, ` +
      `maxQueueBytes ${maxQueueBytes}): the newest trace was dropped${paused ? ' while sending is paused' : ''}`,
    idOf(traceId),
  );
  return DROPPED;
}

function idOf(traceId: string | undefined): string[] | undefined {
  return traceId === undefined ? undefined : [traceId];
}
