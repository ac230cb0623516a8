import {
  ApplicationFindOrCreateError,
  type AqmClient,
  findOrCreateApplication,
  type RequestOptions,
} from '@aqm/client';
import type { ApplicationIdLookup } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import { explain } from './find-application.js';

/**
 * Whether a failed lookup may pass by itself: the service could not be reached or answered 408,
 * 429 or 5xx. A 401, 403, a 404 on the list route (a base URL without its path prefix) or another
 * 4xx waits for someone to fix the key, its rights or the base URL.
 */
function isTransient(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status !== 'number' || status === 408 || status === 429 || status >= 500;
}

/**
 * The application the forwarder was configured with by name (`AQM_APPLICATION_NAME`,
 * `--application-name`), found or created. Looked up at start, so that a wrong key says so at
 * once, and by its pipeline whenever a request needs the id and it is not known yet: a service
 * that is down at start is then an outage like any other, whose traces are kept (in memory, then
 * in the persist dir) and retried on the pipeline's backoff, not a lookup that loses them. The
 * lookups reject with the client's own error, which the pipeline sorts as it sorts the answer to a
 * send (401 and 404 pause sending, another 4xx drops the batch, each said once).
 *
 * @example
 * const application = new ConfiguredApplication(client, 'checkout', logger);
 * application.start(closed.signal);
 * resolveOptions({ client, applicationId: application.lookup });
 */
export class ConfiguredApplication {
  readonly #client: AqmClient;
  readonly #name: string;
  readonly #logger: DiagLogger;
  #id: string | undefined;
  #inFlight: Promise<string> | undefined;
  /** Whether a failure was said: only the first is, and then the success after it. */
  #reported = false;

  constructor(client: AqmClient, name: string, logger: DiagLogger) {
    this.#client = client;
    this.#name = name;
    this.#logger = logger;
  }

  /** For the pipeline's `applicationId`: no retry of its own, the pipeline retries. */
  readonly lookup: ApplicationIdLookup = ({ signal, timeoutMs }) =>
    this.#find({ signal, timeoutMs, maxRetries: 0 });

  /** The lookup at start (one attempt; said when it fails). Never rejects. */
  start(signal: AbortSignal): void {
    this.#find({ signal, maxRetries: 0 }).catch(() => {});
  }

  #find(options: RequestOptions): Promise<string> {
    if (this.#id !== undefined) return Promise.resolve(this.#id);
    this.#inFlight ??= this.#findOrCreate(options).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #findOrCreate(options: RequestOptions): Promise<string> {
    const name = this.#name;
    try {
      const id = await findOrCreateApplication(
        this.#client,
        { name, description: 'Created by @aqm/forwarder' },
        options,
      );
      this.#id = id;
      if (this.#reported)
        this.#logger.warn(`Application "${name}" resolved to ${id}; its traces are sent now`);
      else this.#logger.info(`Application "${name}" is ${id}`);
      return id;
    } catch (error) {
      if (!(error instanceof ApplicationFindOrCreateError)) throw error;
      if (!this.#reported && options.signal?.aborted !== true) {
        this.#reported = true;
        const what = `${error.step === 'find' ? 'looking up' : 'creating'} application "${name}"`;
        if (isTransient(error.cause)) {
          this.#logger.warn(
            `${explain(error.cause, what)}; its traces are kept (in memory, then in the persist dir when set) ` +
              'and the name is looked up again when they are sent',
          );
        } else {
          this.#logger.error(
            `${explain(error.cause, what)}; its traces will not be delivered until that is fixed`,
          );
        }
      }
      throw error.cause;
    }
  }
}
