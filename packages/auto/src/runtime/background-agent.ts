import type { Socket } from 'node:net';
import { createEnvDispatcher } from '@aqm/client';
import { buildConnector, type Dispatcher, Pool } from 'undici';

/** How long an idle connection is kept for the next request (as `AqmClient`'s own agent). */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

type Connect = buildConnector.connector;

/**
 * An undici dispatcher whose connections never keep the process alive. `@aqm/auto` sends from the
 * background of an app it does not own: a request in flight to a service that does not answer
 * (the application lookup, or a batch of traces) kept the event loop busy, so `beforeExit` came
 * only once it timed out, and the app's end was held past `AQM_FLUSH_TIMEOUT_MS` before the exit
 * flush even began. With these sockets, the app's end comes when its own work is done; the exit
 * flush then holds the process itself (its own timer), within its bound.
 *
 * undici refs a connection's socket while a request uses it, so `ref()` is made a no-op on the
 * sockets of this dispatcher (and of it alone). A connection still being opened (a DNS lookup, a
 * TCP handshake to a host that drops packets) is not covered: it holds the process for at most the
 * connect timeout.
 *
 * `HTTP_PROXY` / `HTTPS_PROXY` / `NO_PROXY` are honoured as by `AqmClient` (`createEnvDispatcher`),
 * with the same property: the socket to the proxy (also while it answers CONNECT) and the tunnel
 * through it are unref'd for good too.
 *
 * @example
 * const agent = createBackgroundAgent();
 * const client = new AqmClient({ apiKey, baseUrl, dispatcher: agent });
 */
export function createBackgroundAgent(): Dispatcher {
  return createEnvDispatcher({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Direct connections.
    connect: unrefConnector(buildConnector({})),
    // Connections to a target through the proxy: the proxy agent gives its pools a connect that
    // opens the tunnel; the socket it yields is unref'd here.
    factory: (origin, options) => unrefPool(origin, options),
    // The proxy agent's own pool to the proxy, which sends the CONNECT requests.
    clientFactory: (origin, options) => unrefPool(origin, options),
  });
}

/** A pool as undici would make it, with sockets that never hold the process. */
function unrefPool(origin: string | URL, options: object): Pool {
  const poolOptions = options as Pool.Options;
  return new Pool(origin, { ...poolOptions, connect: unrefConnector(poolOptions.connect) });
}

/** `connect`, or undici's default connector, yielding sockets that never hold the process. */
function unrefConnector(connect: unknown): Connect {
  const inner: Connect =
    typeof connect === 'function'
      ? (connect as Connect)
      : buildConnector((connect ?? {}) as buildConnector.BuildOptions);
  return (options, callback) => {
    inner(options, (error, socket) => {
      // undici passes no socket at all (not null) when the connection failed.
      if (error !== null && error !== undefined) callback(error, null);
      else if (socket !== null && socket !== undefined) callback(null, unrefForGood(socket));
      else callback(new Error('undici gave neither a socket nor an error'), null);
    });
  };
}

function unrefForGood<S extends Socket>(socket: S): S {
  socket.unref();
  socket.ref = () => socket;
  return socket;
}
