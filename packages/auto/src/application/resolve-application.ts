import {
  ApplicationByName,
  type ApplicationsFinder,
  applicationLookupStep,
  applicationRoutesMissing,
  isTransientLookupFailure,
} from '@aqm/client';
import type { ApplicationRef } from '../config/env-config.js';

/**
 * The application `AQM_APPLICATION_NAME` names, found or created when its id is first needed: at
 * startup, and by the processors when the service could not be reached then (they share the lookup
 * in flight and the id found).
 */
export function namedApplication(client: ApplicationsFinder, name: string): ApplicationByName {
  return new ApplicationByName(client, { name, description: 'Created by @aqm/auto (AQM_APPLICATION_NAME)' });
}

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

/**
 * The application's id (`undefined`: a name that could not be looked up yet, the service being
 * unreachable), and a warning when it could not be checked or found but traces are kept anyway.
 */
export interface ResolvedApplication {
  applicationId: string | undefined;
  warning: string | undefined;
}

/** The lookup cannot give an id the service will accept: traces would all be refused. */
export class ApplicationLookupError extends Error {
  override readonly name = 'ApplicationLookupError';
}

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

/**
 * The startup lookup of a name. A definite answer (401, 403, a 404 on the list route, another 4xx)
 * rejects; a service that cannot be reached (or answers 408, 429, 5xx) gives no id and a warning:
 * the processors look the name up again when they have traces to send, which are kept meanwhile.
 */
async function findOrCreate(named: ApplicationByName, options: CallOptions): Promise<ResolvedApplication> {
  try {
    return { applicationId: await named.find(options), warning: undefined };
  } catch (error) {
    const what = `${applicationLookupStep(error) === 'find' ? 'looking up' : 'creating'} application "${named.name}" (AQM_APPLICATION_NAME)`;
    if (isTransientLookupFailure(error)) {
      return {
        applicationId: undefined,
        warning:
          `${explain(error, what)}; traces are kept (in memory, then in AQM_PERSIST_DIR when set) ` +
          'and the name is looked up again when they are sent',
      };
    }
    const describe = statusOf(error) === 404 ? explainMissingRoute : explain;
    throw new ApplicationLookupError(describe(error, what));
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
 * an `AQM_APPLICATION_NAME` is found by its exact name or created (through `options.named`, whose
 * id the processors then share, or a lookup of its own). Rejects with an
 * {@link ApplicationLookupError} saying what to fix when the service refuses the key, does not
 * know the id or lacks the routes; a service that cannot be reached only gives a warning (the
 * traces are kept and retried, and a name is looked up again when they are sent).
 *
 * @example
 * const { applicationId } = await resolveApplication(client, { name: 'support-bot' });
 */
export function resolveApplication(
  client: ApplicationsApi,
  ref: ApplicationRef,
  options: CallOptions & { named?: ApplicationByName } = {},
): Promise<ResolvedApplication> {
  const { named, ...callOptions } = options;
  if ('id' in ref) return check(client, ref.id, callOptions);
  return findOrCreate(named ?? namedApplication(client, ref.name), callOptions);
}
