import {
  ApplicationFindOrCreateError,
  type ApplicationsFinder,
  applicationRoutesMissing,
  findOrCreateApplication,
} from '@aqm/client';
import type { ApplicationRef } from '../config/env-config.js';

/** Per-call options of the client: the lookup is aborted when `startAuto`'s handle shuts down. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The part of an `AqmClient` the lookup uses. */
export interface ApplicationsApi extends ApplicationsFinder {
  applications: ApplicationsFinder['applications'] & {
    /** Only whether it succeeds matters. */
    get(applicationId: string, options: CallOptions): Promise<unknown>;
  };
}

/** The application's id, and a warning when it could not be checked but is used anyway. */
export interface ResolvedApplication {
  applicationId: string;
  warning: string | undefined;
}

/** The lookup cannot give an id the service will accept: traces would all be refused. */
export class ApplicationLookupError extends Error {
  override readonly name = 'ApplicationLookupError';
}

const DESCRIPTION = 'Created by @aqm/auto (AQM_APPLICATION_NAME)';

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error's message as a clause: the client's own messages end some sentences with a period
 * (`... cannot access it.`), and this one goes on (`; retried`, `. No LLM trace is sent.`).
 */
function clauseOf(error: unknown): string {
  return messageOf(error).replace(/\.+$/, '');
}

/** Says what to fix for a failed request, without the key. */
function explain(error: unknown, what: string): string {
  const status = statusOf(error);
  if (status === 401) return `The service rejected AQM_API_KEY (401) while ${what}: check the key`;
  if (status === undefined)
    return `Could not reach the service at AQM_BASE_URL while ${what}: ${clauseOf(error)}`;
  return `The service answered ${status} while ${what}: ${clauseOf(error)}`;
}

/**
 * A 404 on the application list or create route: those routes always exist, so the base URL
 * lacks the service's path prefix (as `aqm` says for the same answer).
 */
function explainMissingRoute(error: unknown, what: string): string {
  return (
    `${explain(error, what)}; check that AQM_BASE_URL includes the service's path prefix, ` +
    'e.g. http://127.0.0.1:4000/api'
  );
}

async function findOrCreate(client: ApplicationsApi, name: string, options: CallOptions): Promise<string> {
  try {
    return await findOrCreateApplication(client, { name, description: DESCRIPTION }, options);
  } catch (error) {
    if (!(error instanceof ApplicationFindOrCreateError)) throw error;
    const what = error.step === 'find' ? 'looking up' : 'creating';
    const describe = statusOf(error.cause) === 404 ? explainMissingRoute : explain;
    throw new ApplicationLookupError(
      describe(error.cause, `${what} application "${name}" (AQM_APPLICATION_NAME)`),
    );
  }
}

async function check(
  client: ApplicationsApi,
  id: string,
  options: CallOptions,
): Promise<ResolvedApplication> {
  try {
    await client.applications.get(id, options);
    return { applicationId: id, warning: undefined };
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) {
      throw new ApplicationLookupError(
        (await applicationRoutesMissing(client, options))
          ? explainMissingRoute(error, `checking application ${id}`)
          : `The service does not know application ${id} (AQM_APPLICATION_ID), or AQM_API_KEY cannot access it (404)`,
      );
    }
    if (status === 401) throw new ApplicationLookupError(explain(error, `checking application ${id}`));
    // The service may be down for now: the traces queue and are retried, so keep going.
    return {
      applicationId: id,
      warning: `${explain(error, `checking application ${id}`)}; traces are queued and retried`,
    };
  }
}

/**
 * Resolves the application the traces belong to: an `AQM_APPLICATION_ID` is checked (one read),
 * an `AQM_APPLICATION_NAME` is found by its exact name or created. Rejects with an
 * {@link ApplicationLookupError} saying what to fix when the service refuses the key, does not
 * know the id, or cannot be reached for a name lookup.
 *
 * @example
 * const { applicationId } = await resolveApplication(client, { name: 'support-bot' });
 */
export function resolveApplication(
  client: ApplicationsApi,
  ref: ApplicationRef,
  options: CallOptions = {},
): Promise<ResolvedApplication> {
  if ('id' in ref) return check(client, ref.id, options);
  return findOrCreate(client, ref.name, options).then((applicationId) => ({
    applicationId,
    warning: undefined,
  }));
}
