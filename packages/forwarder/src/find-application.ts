import { ApplicationFindOrCreateError, type AqmClient, findOrCreateApplication } from '@aqm/client';
import type { DiagLogger } from '@opentelemetry/api';

/**
 * Waiting will not fix it: the key was refused (401), the key cannot create applications (403), or
 * the list/create route is not there (404: a base URL without the service's path prefix).
 */
function isFinal(error: unknown): boolean {
  if (error instanceof ApplicationMissingError) return true;
  const status = (error as { cause?: { status?: unknown } } | null)?.cause?.status;
  return status === 401 || status === 403 || status === 404;
}

/** Says what to fix for a failed request, without the key. */
export function explain(error: unknown, what: string): string {
  const status = (error as { status?: unknown } | null)?.status;
  // A clause: the client ends some messages with a period (`... cannot access it.`), and this one
  // goes on (`; retrying, ...`).
  const message = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
  if (status === 401) return `The service rejected the API key (401) while ${what}: check AQM_API_KEY`;
  if (typeof status !== 'number') return `Could not reach the service while ${what}: ${message}`;
  // The list and create routes always exist: a 404 there is a base URL without its path prefix.
  const hint =
    status === 404
      ? "; check that the base URL (AQM_BASE_URL, --base-url or baseUrl) includes the service's path prefix, " +
        'e.g. http://127.0.0.1:4000/api'
      : '';
  return `The service answered ${status} while ${what}: ${message}${hint}`;
}

/**
 * The id of the application named exactly `name`, created when there is none. Rejects with a
 * message saying what to fix when the service refuses the key or cannot be reached.
 *
 * @example
 * const id = await findOrCreateApplicationNamed(client, 'checkout-service');
 */
export async function findOrCreateApplicationNamed(client: AqmClient, name: string): Promise<string> {
  try {
    return await findOrCreateApplication(client, { name, description: 'Created by @aqm/forwarder' });
  } catch (error) {
    if (!(error instanceof ApplicationFindOrCreateError)) throw error;
    const what = error.step === 'find' ? 'looking up' : 'creating';
    throw new Error(explain(error.cause, `${what} application "${name}"`), { cause: error.cause });
  }
}

/** No application has the name, and the forwarder may not create one (`createApplications`). */
export class ApplicationMissingError extends Error {
  override readonly name = 'ApplicationMissingError';
}

/**
 * The id of the application named exactly `name`; rejects with {@link ApplicationMissingError}
 * when there is none (nothing is created), or with a message saying what to fix when the
 * service refuses the key or cannot be reached.
 */
export async function findApplicationNamed(client: AqmClient, name: string): Promise<string> {
  try {
    // `search` is a case-insensitive partial match: keep only the exact name (names are unique).
    for await (const application of client.applications.iterate({ search: name, limit: 100 })) {
      if (application.name === name) return application.id;
    }
  } catch (error) {
    throw new Error(explain(error, `looking up application "${name}"`), { cause: error });
  }
  throw new ApplicationMissingError(
    `No application is named "${name}", and the forwarder creates none from a resource (createApplications is off)`,
  );
}

/** First wait before a lookup is tried again, doubled up to {@link MAX_RETRY_DELAY_MS}. */
export const FIRST_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 30_000;

/**
 * {@link findOrCreateApplicationNamed}, tried again with backoff while the service cannot be reached or
 * answers 429/5xx (the traces of the application wait in its bounded queue meanwhile), and given up
 * when the key is refused (401/403), the route is missing (404: a base URL without its path prefix)
 * or `signal` aborts (the forwarder closes). The first failure
 * is reported through `logger`; a later success too. With `create` false, a missing application
 * is not created: the lookup rejects with {@link ApplicationMissingError}.
 *
 * @example
 * const id = await resolveApplicationByName(client, 'checkout', diag, controller.signal);
 */
export async function resolveApplicationByName(
  client: AqmClient,
  name: string,
  logger: DiagLogger,
  signal: AbortSignal,
  create = true,
): Promise<string> {
  let delayMs = FIRST_RETRY_DELAY_MS;
  let reported = false;
  for (;;) {
    try {
      const id = create
        ? await findOrCreateApplicationNamed(client, name)
        : await findApplicationNamed(client, name);
      if (reported)
        logger.warn(`Application "${name}" resolved to ${id} after retrying; its traces are sent now`);
      return id;
    } catch (error) {
      if (isFinal(error) || signal.aborted) throw error;
      if (!reported) {
        reported = true;
        logger.warn(`${(error as Error).message}; retrying, the traces wait in the queue meanwhile`);
      }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      timer.unref();
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    if (signal.aborted)
      throw new Error(`The forwarder closed before application "${name}" could be resolved`);
    delayMs = Math.min(MAX_RETRY_DELAY_MS, delayMs * 2);
  }
}
