import { WHY_FLUSH_BOUND } from '../spill/spill-reports.js';
import type { DropCounter } from './drop-counter.js';
import type { HeldTraces } from './held-traces.js';
import type { DeliveryOutcome, DropReason, QueuedTrace } from './queued-trace.js';
import type { OverflowStore } from './sender-types.js';

/** What sends traces to disk, as the line saying a spell of writing began puts it. */
export const WHY_ON_DISK: Partial<Record<DropReason, string>> = {
  'retries-exhausted': 'the service has not taken them within maxRetryElapsedMs',
  shutdown: 'they were not delivered by shutdown',
  'queue-full': 'the queue in memory is full (maxQueueTraces or maxQueueBytes)',
};

/**
 * Settles held traces given up for a reason the disk can cure (retry time out, shutdown): those
 * read from disk stay there (`persisted`: their file goes back to the folder), the others are
 * written to `overflow` and settle once they are on disk; without a disk that takes writes, or if
 * it refuses them, they are dropped for `reason`.
 */
export function giveUpToDisk(
  held: HeldTraces,
  drops: DropCounter,
  overflow: OverflowStore | undefined,
  given: { entries: readonly QueuedTrace[]; reason: DropReason; message: string; why?: string },
): void {
  const { entries, reason, message } = given;
  const fromDisk = entries.filter((entry) => entry.fromDisk === true);
  held.settle(fromDisk, 'persisted');
  const fresh = fromDisk.length === 0 ? entries : entries.filter((entry) => entry.fromDisk !== true);
  if (fresh.length === 0) return;
  if (overflow === undefined || !overflow.writable) {
    const count = held.settle(fresh, 'dropped');
    if (count > 0)
      drops.add(
        reason,
        count,
        message,
        fresh.map((entry) => entry.traceId),
      );
    return;
  }
  const records = fresh.map((entry) => ({ traceId: entry.traceId, body: entry.body }));
  const written = overflow.write(records, given.why ?? WHY_ON_DISK[reason]).then((ok): DeliveryOutcome => {
    if (ok) return 'persisted';
    drops.add(
      reason,
      records.length,
      `${message}; persistDir refused them too`,
      records.map((item) => item.traceId),
    );
    return 'dropped';
  });
  held.settle(fresh, written);
}

/** A new record the memory queue cannot hold, to disk: its ticket, `persisted` once it is there. */
export function overflowToDisk(
  overflow: OverflowStore,
  drops: DropCounter,
  record: { traceId: string; json: string; bytes: number },
): Promise<DeliveryOutcome> {
  return overflow.write([record], WHY_ON_DISK['queue-full']).then((ok) => {
    if (ok) return 'persisted';
    drops.add('queue-full', 1, 'The queue was full and persistDir refused the trace', [record.traceId]);
    return 'dropped';
  });
}

/**
 * Every trace held (waiting or in flight) to `overflow`, at a flush's bound: their tickets settle
 * once they are on disk (dropped for `failed`, with `message`, if the disk refuses them). Nothing
 * when there is no disk or it takes no writes now: the traces then stay queued.
 */
export function persistAllHeld(
  held: HeldTraces,
  drops: DropCounter,
  overflow: OverflowStore | undefined,
  message: string,
): { traces: number; written: Promise<DeliveryOutcome[]> } | undefined {
  if (overflow === undefined || !overflow.writable) return undefined;
  const entries = held.takeAll();
  if (entries.length > 0)
    giveUpToDisk(held, drops, overflow, {
      entries,
      reason: 'failed',
      message,
      why: WHY_FLUSH_BOUND,
    });
  return { traces: entries.length, written: Promise.all(entries.map((entry) => entry.settled)) };
}
