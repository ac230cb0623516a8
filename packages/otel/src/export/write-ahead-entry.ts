import type { DropCounter } from './drop-counter.js';
import { type DeliveryOutcome, DROPPED, type QueuedTrace } from './queued-trace.js';
import type { WriteAheadStore } from './sender-types.js';

const PERSISTED: Promise<DeliveryOutcome> = Promise.resolve('persisted');

/**
 * Logs a trace the memory queue just took (`persistMode: 'write-ahead'`): on disk before
 * `enqueue()` returns, and out of the log once it settled (delivered, given up, or written to a
 * spill file). A log the disk refused leaves the trace in memory only, as in overflow mode.
 */
export function logHeldEntry(log: WriteAheadStore | undefined, entry: QueuedTrace): void {
  const release = log?.logHeld(entry.traceId, entry.body);
  if (release !== undefined) void entry.settled.then(release, release);
}

/**
 * A trace the memory queue cannot hold, in write-ahead mode: logged, it is on disk only (`persisted`)
 * and reaches the service from the pool; past `maxDiskBytes` it is refused (`queue-full`: nothing
 * accepted is deleted to make room). `undefined` when the log is off (the disk refused a write) or
 * the caller keeps traces over the bound: the overflow path decides then.
 */
export function keepInLog(
  log: WriteAheadStore | undefined,
  drops: DropCounter,
  record: { traceId: string; json: string; bytes: number },
  keepOverBound: boolean,
): Promise<DeliveryOutcome> | undefined {
  if (log === undefined || !log.writable) return undefined;
  const logged = log.logOverflow(record.traceId, record.json, record.bytes);
  if (logged === 'logged') return PERSISTED;
  if (logged === 'off' || keepOverBound) return undefined;
  drops.add('queue-full', 1, 'The queue was full and persistDir holds maxDiskBytes already', [
    record.traceId,
  ]);
  return DROPPED;
}
