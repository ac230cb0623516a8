import type { CreateApplicationBody } from '@aqm/wire';
import {
  ApplicationFindOrCreateError,
  type ApplicationsFinder,
  findOrCreateApplication,
} from './find-or-create-application.js';
import type { RequestOptions } from './options.js';

/** Which request of a lookup failed, for the messages: the error rejected is the client's own. */
const failedSteps = new WeakMap<object, 'find' | 'create'>();

/**
 * The step of an {@link ApplicationByName} lookup that failed with `error`: `find` (listing by
 * name) or `create` (registering it); `find` for an error that did not come from one.
 */
export function applicationLookupStep(error: unknown): 'find' | 'create' {
  return (typeof error === 'object' && error !== null && failedSteps.get(error)) || 'find';
}

/**
 * Whether a failed lookup may pass by itself: the service could not be reached (or did not answer
 * in time) or answered 408, 429 or 5xx. A 401, 403, a 404 on the list route (a base URL without
 * its path prefix) or another 4xx waits for someone to fix the key, its rights or the base URL.
 */
export function isTransientLookupFailure(error: unknown): boolean {
  const { name, status } = (error ?? {}) as { name?: unknown; status?: unknown };
  if (typeof status === 'number') return status === 408 || status === 429 || status >= 500;
  // By name, not `instanceof`: the error may come from another copy of this package.
  return name === 'AqmConnectionError' || name === 'AqmTimeoutError';
}

/** What an {@link ApplicationByName} tells its owner, for its messages. */
export interface ApplicationByNameEvents {
  /** The id was found or created. */
  found?(id: string): void;
  /** A lookup failed; `aborted` when its request was aborted by the caller (not a failure to say). */
  failed?(error: ApplicationFindOrCreateError, aborted: boolean): void;
}

/**
 * An application known by its name, found or created ({@link findOrCreateApplication}) when its
 * id is first needed and remembered once found. Lookups made at the same time share one request;
 * a failed one is tried again by the next call. Rejects with the client's own error (its `status`,
 * if any, says why; {@link applicationLookupStep} says which step), so that a caller sorts it as
 * it sorts the answer to any request.
 *
 * `lookup` fits @aqm/otel's `applicationId` option: no retry of its own, the sender retries.
 *
 * @example
 * ```ts
 * const application = new ApplicationByName(client, { name: 'support-bot', description: 'Helpdesk' });
 * const id = await application.find();
 * ```
 */
export class ApplicationByName {
  readonly name: string;
  readonly #client: ApplicationsFinder;
  readonly #body: CreateApplicationBody;
  readonly #events: ApplicationByNameEvents;
  #id: string | undefined;
  #inFlight: Promise<string> | undefined;

  constructor(client: ApplicationsFinder, body: CreateApplicationBody, events: ApplicationByNameEvents = {}) {
    this.#client = client;
    this.#body = body;
    this.#events = events;
    this.name = body.name;
  }

  /** The id once found; `undefined` before. */
  get id(): string | undefined {
    return this.#id;
  }

  /** One attempt, bounded by `timeoutMs`: for a pipeline that retries on its own backoff. */
  readonly lookup = ({ signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number }): Promise<string> =>
    this.find({ signal, timeoutMs, maxRetries: 0 });

  /** The id, found or created (with `options` for the requests when a lookup is needed). */
  find(options: RequestOptions = {}): Promise<string> {
    if (this.#id !== undefined) return Promise.resolve(this.#id);
    this.#inFlight ??= this.#findOrCreate(options).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #findOrCreate(options: RequestOptions): Promise<string> {
    try {
      const id = await findOrCreateApplication(this.#client, this.#body, options);
      this.#id = id;
      this.#events.found?.(id);
      return id;
    } catch (error) {
      if (!(error instanceof ApplicationFindOrCreateError)) throw error;
      this.#events.failed?.(error, options.signal?.aborted === true);
      const cause = error.cause;
      if (typeof cause === 'object' && cause !== null) failedSteps.set(cause, error.step);
      throw cause;
    }
  }
}
