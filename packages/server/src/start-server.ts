import type { RouteName } from '@aqm/wire';
import { createService } from './app.js';
import type { ApiKey } from './auth.js';
import type { FaultsConfig } from './faults.js';
import { checkListenOptions, type StartServerOptions } from './options.js';

/** A running local service. */
export interface RunningServer {
  /** The spec's `{base_url}`: `http://host:port` plus the prefix, e.g. `http://127.0.0.1:54321/api`. */
  readonly url: string;
  /** The port it listens on (useful with `port: 0`). */
  readonly port: number;
  /** The database location: a file in `dataDir`, or `':memory:'`. */
  readonly storage: string;
  /**
   * Replaces the fault rules at run time; `null` switches faults off.
   * @example
   * ```ts
   * srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] }); // outage
   * srv.setFaults(null); // recovery
   * ```
   */
  setFaults(faults: FaultsConfig | null): void;
  /**
   * Requests received so far for a route of the wire table, or in all without a name
   * (faulted and refused requests included).
   * @example
   * ```ts
   * expect(srv.requestCount('evaluations.submit')).toBe(3);
   * ```
   */
  requestCount(route?: RouteName): number;
  /**
   * Sets the request counters back to 0.
   * @example
   * ```ts
   * srv.resetRequestCounts();
   * ```
   */
  resetRequestCounts(): void;
  /**
   * Adds an API key (or replaces the entry of the same key).
   * @example
   * ```ts
   * srv.addApiKey({ key: 'second-key', projectId: 'other-project' });
   * ```
   */
  addApiKey(key: ApiKey): void;
  /**
   * Revokes a key: it is answered 401 from now on. Returns whether the key was known.
   * @example
   * ```ts
   * srv.revokeApiKey('second-key');
   * ```
   */
  revokeApiKey(key: string): boolean;
  /**
   * Stops listening, destroys open sockets (hanging ones too) and closes the database.
   * @example
   * ```ts
   * await srv.close();
   * ```
   */
  close(): Promise<void>;
}

/**
 * Starts the local service on a socket and resolves once it listens.
 * @throws TypeError or RangeError for a bad option, naming it; the listen error when the port is taken.
 * @example
 * ```ts
 * const srv = await startServer({ apiKeys: [{ key: 'dev-key', projectId: 'demo' }] });
 * const client = new AqmClient({ apiKey: 'dev-key', baseUrl: srv.url });
 * // ...
 * await srv.close();
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { port, host } = checkListenOptions(options ?? {});
  const service = createService(options);
  const { app, faults, keys, prefix } = service;
  try {
    await app.listen({ port, host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${actualPort}${prefix}`,
    port: actualPort,
    storage: service.store.location,
    setFaults: (next) => faults.set(next),
    requestCount: (route) => faults.requestCount(route),
    resetRequestCounts: () => faults.resetCounts(),
    addApiKey: (key) => keys.add(key),
    revokeApiKey: (key) => keys.revoke(key),
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
}
