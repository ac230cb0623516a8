import type { DeliveryOutcome } from './queued-trace.js';

/**
 * The delivery tickets of completed traces, gathered for the exporter's callback: those completed
 * during an `addSpans()` call go back from it, and those completed between calls (by the idle
 * timer or a flush) go back from the next one, so the exporter's next callback waits for them too.
 */
export class DeliveryTickets {
  /** Tickets of the traces completed during the current `addSpans()` call. */
  #collector: Promise<DeliveryOutcome>[] | undefined;
  /**
   * Tickets of traces completed outside an `addSpans()` call, handed to the next call. Bounded: at
   * most `maxOpenTraces` traces can complete between two calls.
   */
  #completedMeanwhile: Promise<DeliveryOutcome>[] = [];

  /** Gathers the ticket of a trace just queued (or refused). */
  collect(ticket: Promise<DeliveryOutcome>): void {
    (this.#collector ?? this.#completedMeanwhile).push(ticket);
  }

  /**
   * Runs `feed` (which must not throw) and returns the tickets of the traces it completed, with
   * those completed since the last call.
   */
  during(feed: () => void): Promise<DeliveryOutcome>[] {
    const previous = this.#collector;
    const collected = this.#completedMeanwhile;
    this.#completedMeanwhile = [];
    this.#collector = collected;
    try {
      feed();
    } finally {
      this.#collector = previous;
    }
    return collected;
  }
}
