import type { ApplicationsFinder } from './find-or-create-application.js';
import type { RequestOptions } from './options.js';

/**
 * Whether the service's application list answers 404. That route always exists, so a 404 there
 * means the base URL lacks the service's path prefix: after a 404 on an application read, this
 * tells an unknown application id from a base URL that sends every request astray. One request;
 * any other outcome (a page, another error) is `false`.
 *
 * @example
 * if (await applicationRoutesMissing(client)) console.error('AQM_BASE_URL lacks the path prefix, e.g. /api');
 */
export async function applicationRoutesMissing(
  client: ApplicationsFinder,
  options?: RequestOptions,
): Promise<boolean> {
  try {
    for await (const _ of client.applications.iterate({ limit: 1 }, options)) break;
    return false;
  } catch (error) {
    return (error as { status?: unknown } | null)?.status === 404;
  }
}
