import type { DiagLogger } from '@opentelemetry/api';
import { alert } from '../diag.js';

/** Why sending is paused: the key (401) or the application id (404) needs fixing. */
export type PauseCause = 'unauthorized' | 'not-found';

/**
 * What a 401 or 404 asks the user to fix. A 404 also comes from a base URL without the service's
 * path prefix (every route is then unknown), which the answer alone cannot tell apart.
 */
export function whatToFix(cause: PauseCause, applicationId: string): string {
  return cause === 'unauthorized'
    ? 'The service rejected the API key (401). Check AQM_API_KEY (or the `apiKey` option).'
    : `The service does not know application ${applicationId} or the key cannot access it (404). ` +
        'Check AQM_APPLICATION_ID (or the `applicationId` option), and that AQM_BASE_URL (or `baseUrl`) ' +
        "includes the service's path prefix, e.g. https://aqm.example.com/api.";
}

/**
 * The paused state of the sender after a 401 or 404. Nothing will pass until the key or the
 * application id is fixed, so instead of every batch retrying, one batch probes the service on the
 * backoff schedule while the others wait in the queue. Says once what to fix, and when it resumed.
 */
export class PauseGate {
  #cause: PauseCause | undefined;
  /** Whether a batch is probing; at most one does while paused. */
  probeActive = false;
  /** Backoff step of the next probe. */
  attempt = 0;
  readonly #logger: DiagLogger;
  readonly #describe: { applicationId: string; maxQueueTraces: number; maxQueueBytes: number };

  constructor(
    logger: DiagLogger,
    describe: { applicationId: string; maxQueueTraces: number; maxQueueBytes: number },
  ) {
    this.#logger = logger;
    this.#describe = describe;
  }

  get paused(): boolean {
    return this.#cause !== undefined;
  }

  /** Pauses (reporting one error per pause) unless already paused. */
  pause(cause: PauseCause): void {
    if (this.#cause !== undefined) return;
    this.#cause = cause;
    const { applicationId, maxQueueTraces, maxQueueBytes } = this.#describe;
    const fix = whatToFix(cause, applicationId);
    // Visible even with no logging set up: nothing reaches the service until someone acts.
    alert(
      this.#logger,
      'error',
      cause,
      `${fix} Sending is paused; traces keep queueing (up to maxQueueTraces ${maxQueueTraces}, ` +
        `maxQueueBytes ${maxQueueBytes}) and go out once a request succeeds.`,
    );
  }

  /** Ends the pause after a successful request; returns whether there was one to end. */
  resume(): boolean {
    if (this.#cause === undefined) return false;
    this.#cause = undefined;
    this.attempt = 0;
    this.#logger.info('Sending traces resumed: the service accepted a request again.');
    return true;
  }
}
