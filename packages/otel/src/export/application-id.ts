import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';

/** Why a batch could not be sent: the application id promise rejected. Sorted as `failed` (dropped). */
class ApplicationIdError extends Error {
  override readonly name = 'AqmApplicationIdError';
}

/**
 * The application id the pipeline sends to: a string known at once, or a promise (an id looked up
 * at startup) that the first request waits for. A rejection is reported once, at once and visibly
 * (see `alert`: nothing will be delivered), and every batch that needed the id is then dropped
 * rather than retried: waiting will not fix it.
 */
export class ApplicationIdSource {
  #known: string | undefined;
  readonly #pending: Promise<string> | undefined;

  constructor(id: string | Promise<string>, logger: DiagLogger) {
    if (typeof id === 'string') {
      this.#known = id;
      return;
    }
    this.#pending = id.then(
      (value) => {
        this.#known = value;
        return value;
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        alert(
          logger,
          'error',
          'application-id',
          `The application id could not be resolved, so no trace is sent: ${reason}`,
        );
        throw new ApplicationIdError(`The application id could not be resolved: ${reason}`);
      },
    );
    // Handled here; each batch that awaits it sees the rejection.
    this.#pending.catch(() => {});
  }

  /** The id for messages: the id once known. */
  get label(): string {
    return this.#known ?? '(not resolved yet)';
  }

  /**
   * The id, waiting for the promise when needed. Rejects when it could not be resolved, or with
   * `signal`'s reason when the signal aborts first (shutdown deadline).
   */
  get(signal: AbortSignal): Promise<string> {
    if (this.#known !== undefined) return Promise.resolve(this.#known);
    const pending = this.#pending as Promise<string>;
    return new Promise<string>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}
