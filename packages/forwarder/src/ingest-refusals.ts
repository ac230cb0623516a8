/** What one export request came to: how many items were refused, and why (for `partial_success`). */
export interface IngestResult {
  accepted: number;
  rejected: number;
  errorMessage: string;
  /** Nothing was taken, and the request may be later: answer 503 with `Retry-After`. */
  retryLater: boolean;
}

/** Tallies the refusals of one request by reason, for `partial_success.error_message`. */
export class Refusals {
  readonly #byReason = new Map<string, number>();
  count = 0;
  retryable = false;

  add(count: number, reason: string, retryable = false): void {
    if (count === 0) return;
    this.count += count;
    this.retryable ||= retryable;
    this.#byReason.set(reason, (this.#byReason.get(reason) ?? 0) + count);
  }

  message(what: string): string {
    return [...this.#byReason].map(([reason, count]) => `${count} ${what}(s) ${reason}`).join('; ');
  }
}

/** The answer to one request: what was taken, what was refused and why. */
export function result(accepted: number, refusals: Refusals, what: string): IngestResult {
  return {
    accepted,
    rejected: refusals.count,
    errorMessage: refusals.message(what),
    retryLater: accepted === 0 && refusals.retryable,
  };
}
