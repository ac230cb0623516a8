import {
  ApplicationFindOrCreateError,
  type ApplicationsFinder,
  findOrCreateApplication,
  type RequestOptions,
} from '@aqm/client';
import type { ApplicationIdLookup } from '@aqm/otel';

const DESCRIPTION = 'Created by @aqm/auto (AQM_APPLICATION_NAME)';

/** Which request of a lookup failed, for the messages: the thrown error is the client's own. */
const failedSteps = new WeakMap<object, 'find' | 'create'>();

/** The step of a {@link NamedApplication} lookup that failed with `error` (`find` when unknown). */
export function failedStep(error: unknown): 'find' | 'create' {
  return (typeof error === 'object' && error !== null && failedSteps.get(error)) || 'find';
}

/**
 * Whether a failed lookup may pass by itself: the service could not be reached or answered 408,
 * 429 or 5xx. Anything else (401, 403, a 404 on the list route, another 4xx) waits for someone to
 * fix the key, its rights or the base URL.
 */
export function isTransient(error: unknown): boolean {
  const { name, status } = (error ?? {}) as { name?: unknown; status?: unknown };
  if (typeof status === 'number') return status === 408 || status === 429 || status >= 500;
  return name === 'AqmConnectionError' || name === 'AqmTimeoutError';
}

/**
 * The application named by `AQM_APPLICATION_NAME`, found or created. Looked up once at startup,
 * and again by the processors when they have traces to send and the id is not known yet (the
 * service was down at startup): both share the lookup in flight and the id once found. Rejects
 * with the client's own error (its `status`, if any, says why), so that the pipeline sorts it as
 * it sorts the answer to a send.
 */
export class NamedApplication {
  readonly name: string;
  readonly #client: ApplicationsFinder;
  #id: string | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(client: ApplicationsFinder, name: string) {
    this.#client = client;
    this.name = name;
  }

  /** For the processors' `applicationId`: no retry of its own, the sender retries. */
  readonly lookup: ApplicationIdLookup = ({ signal, timeoutMs }) =>
    this.find({ signal, timeoutMs, maxRetries: 0 });

  /** The id, found or created (with `options` for the requests when a lookup is needed). */
  find(options: RequestOptions): Promise<string> {
    if (this.#id !== undefined) return Promise.resolve(this.#id);
    this.#inFlight ??= this.#findOrCreate(options).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #findOrCreate(options: RequestOptions): Promise<string> {
    try {
      this.#id = await findOrCreateApplication(
        this.#client,
        { name: this.name, description: DESCRIPTION },
        options,
      );
      return this.#id;
    } catch (error) {
      if (!(error instanceof ApplicationFindOrCreateError)) throw error;
      const cause = error.cause;
      if (typeof cause === 'object' && cause !== null) failedSteps.set(cause, error.step);
      throw cause;
    }
  }
}
