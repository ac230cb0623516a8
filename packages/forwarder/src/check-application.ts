import { type AqmClient, applicationRoutesMissing } from '@aqm/client';
import type { DiagLogger } from '@opentelemetry/api';
import { explain } from './find-application.js';

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Checks once, at start-up, that the service takes the key and knows the configured application
 * id (one read), so that a forwarder started with a wrong key or id says so at once on stderr
 * rather than when the first trace arrives. Says nothing when the check passes, warns when the
 * service cannot be reached (traces then wait in the queue), never rejects. An application named
 * instead is looked up at start-up anyway, and a failed lookup is said by `ConfiguredApplication`.
 *
 * @example
 * void checkApplicationId(client, '6f1c…', logger, controller.signal);
 */
export async function checkApplicationId(
  client: AqmClient,
  applicationId: string,
  logger: DiagLogger,
  signal: AbortSignal,
): Promise<void> {
  const what = `checking application ${applicationId}`;
  try {
    await client.applications.get(applicationId, { signal });
  } catch (error) {
    if (signal.aborted) return;
    const status = statusOf(error);
    if (status === 404 && !(await applicationRoutesMissing(client, { signal }))) {
      logger.error(
        `The service does not know application ${applicationId} (AQM_APPLICATION_ID or --application-id), ` +
          'or the key cannot access it (404): its traces will not be delivered until that is fixed',
      );
    } else if (status === 401 || status === 403 || status === 404) {
      logger.error(`${explain(error, what)}; its traces will not be delivered until that is fixed`);
    } else if (!signal.aborted) {
      logger.warn(`${explain(error, what)}; traces wait in the queue and are retried meanwhile`);
    }
  }
}
