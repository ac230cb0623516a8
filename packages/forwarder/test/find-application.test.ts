import { type AqmClient, errorFromResponse } from '@aqm/client';
import { diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { resolveApplicationByName } from '../src/find-application.js';

function failing(status: number, thenId?: string): { client: AqmClient; calls: () => number } {
  let calls = 0;
  const client = {
    applications: {
      iterate: async function* () {
        calls += 1;
        if (thenId === undefined || calls === 1)
          throw Object.assign(new Error(`status ${status}`), { status });
        yield { id: thenId, name: 'shop' };
      },
      create: async () => {
        throw new Error('not expected');
      },
    },
  } as unknown as AqmClient;
  return { client, calls: () => calls };
}

describe('resolveApplicationByName', () => {
  it('gives up at once when the key is refused (401), saying what to fix', async () => {
    const { client, calls } = failing(401);
    await expect(
      resolveApplicationByName(client, 'shop', diag, new AbortController().signal),
    ).rejects.toThrow(/rejected the API key \(401\)/);
    expect(calls()).toBe(1);
  });

  it('tries again after a failure that may pass (503)', async () => {
    const { client, calls } = failing(503, 'b1e2c3d4-0000-4000-8000-000000000001');
    await expect(resolveApplicationByName(client, 'shop', diag, new AbortController().signal)).resolves.toBe(
      'b1e2c3d4-0000-4000-8000-000000000001',
    );
    expect(calls()).toBe(2);
  });

  it('gives up at once on a 404 on the list (a base URL without its path prefix), with the hint', async () => {
    let calls = 0;
    const client = {
      applications: {
        iterate: async function* () {
          calls += 1;
          // The client's own error for that answer, whose message ends with a period.
          throw errorFromResponse(
            404,
            { message: 'Route GET /applications not found' },
            {},
            'GET',
            '/applications',
          );
          // biome-ignore lint/correctness/noUnreachable: makes this a generator
          yield { id: 'b1e2c3d4-0000-4000-8000-000000000001', name: 'shop' };
        },
      },
    } as unknown as AqmClient;
    const warnings: string[] = [];
    const logger = { ...diag, warn: (message: string) => warnings.push(message) };
    const error = await resolveApplicationByName(client, 'shop', logger, new AbortController().signal).catch(
      (e: unknown) => e as Error,
    );
    expect((error as Error).message).toBe(
      'The service answered 404 while looking up application "shop": 404 Not Found on GET /applications: ' +
        'Route GET /applications not found. The resource does not exist or this API key cannot access it; ' +
        "check that the base URL (AQM_BASE_URL, --base-url or baseUrl) includes the service's path prefix, " +
        'e.g. http://127.0.0.1:4000/api',
    );
    expect(calls).toBe(1);
    // The one message is the pipeline's, from the rejection: no "retrying" warning before it.
    expect(warnings).toEqual([]);
  });

  it('stops retrying when the forwarder closes', async () => {
    const { client, calls } = failing(503);
    const closed = new AbortController();
    const pending = resolveApplicationByName(client, 'shop', diag, closed.signal);
    // One turn: the first attempt has failed (the fake fails at once) and the back-off is waiting.
    await new Promise((resolve) => setImmediate(resolve));
    closed.abort();
    await expect(pending).rejects.toThrow(/closed before application "shop" could be resolved/);
    expect(calls()).toBe(1);
  });
});
