import type { AqmClient } from '@aqm/client';

/** Says what to fix for a failed request, without the key. */
function explain(error: unknown, what: string): string {
  const status = (error as { status?: unknown } | null)?.status;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401) return `The service rejected the API key (401) while ${what}: check AQM_API_KEY`;
  if (typeof status !== 'number') return `Could not reach the service while ${what}: ${message}`;
  return `The service answered ${status} while ${what}: ${message}`;
}

async function findByName(client: AqmClient, name: string): Promise<string | undefined> {
  // `search` is a case-insensitive partial match: keep only the exact name.
  for await (const application of client.applications.iterate({ search: name, limit: 100 })) {
    if (application.name === name) return application.id;
  }
  return undefined;
}

/**
 * The id of the application named exactly `name`, created when there is none. Rejects with a
 * message saying what to fix when the service refuses the key or cannot be reached.
 *
 * @example
 * const id = await findOrCreateApplication(client, 'checkout-service');
 */
export async function findOrCreateApplication(client: AqmClient, name: string): Promise<string> {
  try {
    const found = await findByName(client, name);
    if (found !== undefined) return found;
  } catch (error) {
    throw new Error(explain(error, `looking up application "${name}"`));
  }
  try {
    return (await client.applications.create({ name, description: 'Created by @aqm/forwarder' })).id;
  } catch (error) {
    // 409: another forwarder created it first; it is there now.
    if ((error as { status?: unknown } | null)?.status === 409) {
      const found = await findByName(client, name).catch(() => undefined);
      if (found !== undefined) return found;
    }
    throw new Error(explain(error, `creating application "${name}"`));
  }
}
