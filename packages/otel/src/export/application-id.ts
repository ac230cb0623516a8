import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';
import type { ApplicationIdLookup } from '../options.js';

/** Why a batch could not be sent: the application id promise rejected. Sorted as `failed` (dropped). */
export class ApplicationIdError extends Error {
  override readonly name = 'AqmApplicationIdError';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The application id the pipeline sends to: a string known at once; a promise (an id looked up
 * at startup) that the first request waits for; or a lookup function, called when a request needs
 * the id and it is not known yet.
 *
 * A promise that rejects is reported once, at once and visibly (see `alert`: nothing will be
 * delivered), and every batch that needed the id is then dropped rather than retried.
 *
 * A lookup that fails is no verdict on the traces: its error goes to the batch that needed it, which
 * sorts it as it sorts a failed send (a connection error, a timeout, 429 or 5xx is retried on the
 * sender's backoff and the traces are kept, as in an outage; 401 and 404 pause sending; another 4xx
 * drops the batch), and the next batch looks up again. Once found, the id is kept.
 */
export class ApplicationIdSource {
  #known: string | undefined;
  readonly #pending: Promise<string> | undefined;
  readonly #lookup: ApplicationIdLookup | undefined;
  /** The lookup in flight: the batches that need the id at once share it. */
  #looking: Promise<string> | undefined;

  constructor(id: string | Promise<string> | ApplicationIdLookup, logger: DiagLogger) {
    if (typeof id === 'string') {
      this.#known = id;
      return;
    }
    if (typeof id === 'function') {
      this.#lookup = id;
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
   * The id: known, awaited (a promise) or looked up (a lookup function, within `timeoutMs`). Rejects
   * when it could not be resolved (with the lookup's own error, for the caller to sort), or with
   * `signal`'s reason when the signal aborts first (shutdown deadline).
   */
  get(signal: AbortSignal, timeoutMs: number): Promise<string> {
    if (this.#known !== undefined) return Promise.resolve(this.#known);
    const pending = this.#pending ?? this.#lookUp(signal, timeoutMs);
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

  #lookUp(signal: AbortSignal, timeoutMs: number): Promise<string> {
    if (this.#looking !== undefined) return this.#looking;
    const lookup = this.#lookup as ApplicationIdLookup;
    const looking = (async () => {
      try {
        const id: unknown = await lookup({ signal, timeoutMs });
        // The service chose it, yet a lookup written wrong must not send to `undefined`.
        if (typeof id !== 'string' || !UUID.test(id)) {
          throw new TypeError(`Expected the application id lookup to give a UUID, got ${typeof id}`);
        }
        this.#known = id;
        return id;
      } finally {
        this.#looking = undefined;
      }
    })();
    this.#looking = looking;
    looking.catch(() => {}); // each caller sees the rejection
    return looking;
  }
}
