import type { Application, CreateApplicationBody } from '@aqm/wire';
import type { RequestOptions } from './options.js';

/** The part of `client.applications` that {@link findOrCreateApplication} uses. */
export interface ApplicationsFinder {
  applications: {
    iterate(query: { search?: string; limit?: number }, options?: RequestOptions): AsyncIterable<Application>;
    create(body: CreateApplicationBody, options?: RequestOptions): Promise<Application>;
  };
}

/**
 * A request of {@link findOrCreateApplication} failed: `step` says which (`find`: listing by name,
 * `create`: registering it), `cause` is the client's error (its `status`, if any, tells why).
 */
export class ApplicationFindOrCreateError extends Error {
  override readonly name = 'ApplicationFindOrCreateError';
  readonly step: 'find' | 'create';

  constructor(step: 'find' | 'create', cause: unknown) {
    super(
      `${step === 'find' ? 'Looking up' : 'Creating'} the application failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.step = step;
  }
}

async function idByName(
  client: ApplicationsFinder,
  name: string,
  options: RequestOptions | undefined,
): Promise<string | undefined> {
  // `search` is a case-insensitive partial match: keep only the exact name (names are unique).
  for await (const application of client.applications.iterate({ search: name, limit: 100 }, options)) {
    if (application.name === name) return application.id;
  }
  return undefined;
}

/**
 * The id of the application named exactly `body.name`, created (with `body`) when there is none.
 * Safe when several processes start at once: a create answered 409 (another one created it first)
 * is followed by one more lookup. Rejects with an {@link ApplicationFindOrCreateError} naming the
 * step that failed.
 *
 * @example
 * ```ts
 * const id = await findOrCreateApplication(client, { name: 'support-bot', description: 'Helpdesk assistant' });
 * ```
 */
export async function findOrCreateApplication(
  client: ApplicationsFinder,
  body: CreateApplicationBody,
  options?: RequestOptions,
): Promise<string> {
  let found: string | undefined;
  try {
    found = await idByName(client, body.name, options);
  } catch (error) {
    throw new ApplicationFindOrCreateError('find', error);
  }
  if (found !== undefined) return found;
  try {
    return (await client.applications.create(body, options)).id;
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 409) {
      const raced = await idByName(client, body.name, options).catch(() => undefined);
      if (raced !== undefined) return raced;
    }
    throw new ApplicationFindOrCreateError('create', error);
  }
}
