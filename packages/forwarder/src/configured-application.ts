import {
  ApplicationByName,
  type ApplicationFindOrCreateError,
  type AqmClient,
  isTransientLookupFailure,
} from '@aqm/client';
import type { ApplicationIdLookup } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import { explain } from './find-application.js';

/**
 * The application the forwarder was configured with by name (`AQM_APPLICATION_NAME`,
 * `--application-name`), found or created (an {@link ApplicationByName}). Looked up at start, so
 * that a wrong key says so at once, and by its pipeline whenever a request needs the id and it is
 * not known yet: a service that is down at start is then an outage like any other, whose traces
 * are kept (in memory, then in the persist dir) and retried on the pipeline's backoff, not a
 * lookup that loses them. The lookups reject with the client's own error, which the pipeline sorts
 * as it sorts the answer to a send (401 and 404 pause sending, another 4xx drops the batch, each
 * said once). This class only says the first failure, and the success after it.
 *
 * @example
 * const application = new ConfiguredApplication(client, 'checkout', logger);
 * application.start(closed.signal);
 * resolveOptions({ client, applicationId: application.lookup });
 */
export class ConfiguredApplication {
  readonly #application: ApplicationByName;
  readonly #logger: DiagLogger;
  /** Whether a failure was said: only the first is, and then the success after it. */
  #reported = false;

  constructor(client: AqmClient, name: string, logger: DiagLogger) {
    this.#logger = logger;
    this.#application = new ApplicationByName(
      client,
      { name, description: 'Created by @aqm/forwarder' },
      {
        found: (id) => this.#found(id),
        failed: (error, aborted) => {
          if (!aborted) this.#failed(error);
        },
      },
    );
  }

  /** For the pipeline's `applicationId`: no retry of its own, the pipeline retries. */
  get lookup(): ApplicationIdLookup {
    return this.#application.lookup;
  }

  /** The lookup at start (one attempt; said when it fails). Never rejects. */
  start(signal: AbortSignal): void {
    this.#application.find({ signal, maxRetries: 0 }).catch(() => {});
  }

  #found(id: string): void {
    const name = this.#application.name;
    if (this.#reported) this.#logger.warn(`Application "${name}" resolved to ${id}; its traces are sent now`);
    else this.#logger.info(`Application "${name}" is ${id}`);
  }

  #failed(error: ApplicationFindOrCreateError): void {
    if (this.#reported) return;
    this.#reported = true;
    const what = `${error.step === 'find' ? 'looking up' : 'creating'} application "${this.#application.name}"`;
    if (isTransientLookupFailure(error.cause)) {
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
}
