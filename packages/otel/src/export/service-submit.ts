import type { DiagLogger } from '@opentelemetry/api';
import type { ResolvedOptions } from '../options.js';
import { ApplicationIdError, ApplicationIdSource } from './application-id.js';
import type { DeliveryHealth } from './delivery-health.js';
import { LazyClient } from './lazy-client.js';
import { classifyFailure } from './send-outcome.js';
import type { SubmitBatch } from './sender-types.js';

/** The minimal client surface the pipeline needs. */
export interface EvaluationsClient {
  evaluations: {
    submitSerialized(
      applicationId: string,
      traces: readonly Uint8Array[],
      options: { signal?: AbortSignal; timeoutMs?: number; maxRetries?: number },
    ): Promise<unknown>;
  };
  close?(): Promise<void> | void;
}

/**
 * The client given in the options, or one built from the key and base URL, loaded on the first send
 * (retries are the sender's).
 */
export function createClient(options: ResolvedOptions): EvaluationsClient {
  return options.client ?? new LazyClient(options);
}

/**
 * The sender's `submit`: waits for (or looks up) the application id, sends one batch, and tells `health` how
 * each request went (the sender itself need not know about it).
 */
export function createSubmit(
  client: EvaluationsClient,
  options: ResolvedOptions,
  health: DeliveryHealth,
  logger: DiagLogger,
): { submit: SubmitBatch; applicationId: ApplicationIdSource } {
  const applicationId = new ApplicationIdSource(options.applicationId, logger);
  const submit: SubmitBatch = async (traces, signal) => {
    try {
      // A lookup's failure is the service's answer too (it is down, or refuses the key): it counts
      // for `health` and is sorted like a send's. A rejected id promise is not: ApplicationIdSource
      // says it, once.
      const id = await applicationId.get(signal, options.requestTimeoutMs);
      const accepted = await client.evaluations.submitSerialized(id, traces, {
        signal,
        timeoutMs: options.requestTimeoutMs,
        maxRetries: 0,
      });
      health.succeeded();
      return accepted;
    } catch (error) {
      // Aborted by the shutdown deadline: not an answer of the service.
      if (!signal.aborted && !(error instanceof ApplicationIdError)) health.failed(classifyFailure(error));
      throw error;
    }
  };
  return { submit, applicationId };
}
