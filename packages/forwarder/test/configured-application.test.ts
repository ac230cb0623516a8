import type { AqmClient } from '@aqm/client';
import type { DiagLogger } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ConfiguredApplication } from '../src/configured-application.js';

const ID = 'b1e2c3d4-0000-4000-8000-000000000001';

/** A client whose application list fails with `failures` in turn, then finds `shop`. */
function scripted(failures: Array<number | 'refused'>) {
  const calls: Array<{ maxRetries?: number; timeoutMs?: number }> = [];
  const client = {
    applications: {
      iterate: async function* (_query: unknown, options: { maxRetries?: number; timeoutMs?: number }) {
        calls.push({ maxRetries: options.maxRetries, timeoutMs: options.timeoutMs });
        const failure = failures.shift();
        if (failure === 'refused')
          throw Object.assign(new Error('GET /applications: connection failed: ECONNREFUSED'), {
            name: 'AqmConnectionError',
          });
        if (failure !== undefined) throw Object.assign(new Error(`status ${failure}`), { status: failure });
        yield { id: ID, name: 'shop' };
      },
      create: async () => {
        throw new Error('not expected');
      },
    },
  } as unknown as AqmClient;
  return { client, calls };
}

function capture() {
  const lines: string[] = [];
  const logger = {
    error: (message: string) => lines.push(`error ${message}`),
    warn: (message: string) => lines.push(`warn ${message}`),
    info: (message: string) => lines.push(`info ${message}`),
    debug: () => {},
    verbose: () => {},
  } as DiagLogger;
  return { lines, logger };
}

const request = () => ({ signal: new AbortController().signal, timeoutMs: 1500 });

describe('ConfiguredApplication', () => {
  it('rejects a lookup that cannot reach the service with the client error (for the pipeline to retry), says it once, and keeps the id found later', async () => {
    const { client, calls } = scripted(['refused', 503]);
    const { lines, logger } = capture();
    const application = new ConfiguredApplication(client, 'shop', logger);
    const first = await application.lookup(request()).catch((error: Error) => error);
    expect(first).toMatchObject({ name: 'AqmConnectionError' });
    await expect(application.lookup(request())).rejects.toMatchObject({ status: 503 });
    await expect(application.lookup(request())).resolves.toBe(ID);
    await expect(application.lookup(request())).resolves.toBe(ID);
    // No retry of its own, the pipeline's time limit: the pipeline's backoff does the retrying.
    expect(calls).toEqual([
      { maxRetries: 0, timeoutMs: 1500 },
      { maxRetries: 0, timeoutMs: 1500 },
      { maxRetries: 0, timeoutMs: 1500 },
    ]);
    expect(lines).toEqual([
      'warn Could not reach the service while looking up application "shop": GET /applications: connection ' +
        'failed: ECONNREFUSED; its traces are kept (in memory, then in the persist dir when set) and the ' +
        'name is looked up again when they are sent',
      `warn Application "shop" resolved to ${ID}; its traces are sent now`,
    ]);
  });

  it('says a definite answer (401) once as an error, and rejects with the status for the pipeline to pause', async () => {
    const { client } = scripted([401, 401]);
    const { lines, logger } = capture();
    const application = new ConfiguredApplication(client, 'shop', logger);
    application.start(new AbortController().signal);
    await expect(application.lookup(request())).rejects.toMatchObject({ status: 401 });
    expect(lines).toEqual([
      'error The service rejected the API key (401) while looking up application "shop": check AQM_API_KEY; ' +
        'its traces will not be delivered until that is fixed',
    ]);
  });

  it('shares the lookup in flight', async () => {
    const { client, calls } = scripted([]);
    const application = new ConfiguredApplication(client, 'shop', capture().logger);
    await expect(
      Promise.all([application.lookup(request()), application.lookup(request())]),
    ).resolves.toEqual([ID, ID]);
    expect(calls).toHaveLength(1);
  });
});
