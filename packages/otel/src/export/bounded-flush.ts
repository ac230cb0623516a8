import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import type { DeliveryHealth } from './delivery-health.js';
import { settlesWithin } from './settles-within.js';
import type { TraceSender } from './trace-sender.js';

/**
 * The part of a flush's bound kept for writing what is still held to `persistDir`: a quarter of
 * it, at most 1 s (writing and syncing a file took 200 ms on a loaded VM).
 */
export function diskShareOf(timeoutMs: number): number {
  return Math.min(1000, Math.floor(timeoutMs / 4));
}

/** What {@link boundedFlush} works with, all owned by the pipeline. */
export interface BoundedFlushParts {
  sender: TraceSender;
  health: DeliveryHealth;
  logger: DiagLogger;
  /** The flush's bound, in ms (`flushTimeoutMs`). */
  timeoutMs: number;
  /** The folder behind the queue, or `undefined` (then what is left stays queued in memory). */
  persistDir: string | undefined;
  /** Settles when delivery is known to be impossible (401/404): the flush stops waiting then. */
  stop: Promise<void>;
}

/**
 * Waits for the sender to deliver what it holds, within `timeoutMs` in all. At the bound, what is
 * still held goes to `persistDir` (in the last part of the bound, see {@link diskShareOf}), or
 * stays queued in memory without one; either way it is said once, visibly (see `alert`), with
 * where the traces are now. Never rejects.
 */
export async function boundedFlush(parts: BoundedFlushParts): Promise<void> {
  const { sender, timeoutMs, persistDir } = parts;
  const startedAt = Date.now();
  const diskShare = persistDir === undefined ? 0 : diskShareOf(timeoutMs);
  const delivered = await sender.flush(parts.stop, Math.max(1, timeoutMs - diskShare));
  // Shutdown began meanwhile (the exit's, past its own bound): it says what it gives up.
  if (delivered || sender.closing || sender.stats().queuedTraces === 0) return;
  // Stopped by a 401/404: the pause said what to fix, and the traces wait for it in the queue.
  if (parts.health.blocked !== undefined) return;
  const lastError = parts.health.lastFailure;
  const why =
    `forceFlush() stopped waiting for delivery at its bound, flushTimeoutMs (${timeoutMs} ms)` +
    (lastError === '' ? ': the service had not answered yet' : `; last error: ${lastError}`);
  const moved = persistDir === undefined ? undefined : sender.persistHeld(why);
  if (moved === undefined) {
    const { queuedTraces, queuedBytes } = sender.stats();
    const where =
      persistDir === undefined
        ? 'Set persistDir (AQM_PERSIST_DIR) to keep them on disk instead.'
        : `persistDir (${persistDir}) takes no writes now.`;
    say(
      parts.logger,
      `${why}. ${queuedTraces} trace(s) (${queuedBytes} bytes) not delivered yet stay queued in memory and ` +
        `are retried; they are lost if the process exits first. ${where}`,
    );
    return;
  }
  const waitMs = Math.max(1, timeoutMs - (Date.now() - startedAt));
  let outcomes: readonly string[] | undefined;
  const settled = await settlesWithin(
    moved.written.then((list) => {
      outcomes = list;
    }),
    waitMs,
  );
  let where: string;
  if (!settled || outcomes === undefined) {
    where = `${moved.traces} trace(s) not delivered yet are being written to persistDir (${persistDir})`;
  } else {
    const onDisk = outcomes.filter((outcome) => outcome === 'persisted').length;
    const lost = outcomes.length - onDisk;
    where = `${onDisk} trace(s) not delivered yet were written to persistDir (${persistDir})`;
    if (lost > 0) where += `; ${lost} were lost: persistDir refused them`;
  }
  say(
    parts.logger,
    `${why}. ${where}. They are sent from there once the service answers, by this process or the next one using the folder.`,
  );
}

function say(logger: DiagLogger, message: string): void {
  alert(logger, 'warn', 'flush-timeout', message);
}
