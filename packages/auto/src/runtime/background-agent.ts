import type { Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';

/** How long an idle connection is kept for the next request (as `AqmClient`'s own agent). */
const KEEP_ALIVE_TIMEOUT_MS = 10_000;

/**
 * An undici `Agent` whose connections never keep the process alive. `@aqm/auto` sends from the
 * background of an app it does not own: a request in flight to a service that does not answer
 * (the application lookup, or a batch of traces) kept the event loop busy, so `beforeExit` came
 * only once it timed out, and the app's end was held past `AQM_FLUSH_TIMEOUT_MS` before the exit
 * flush even began. With these sockets, the app's end comes when its own work is done; the exit
 * flush then holds the process itself (its own timer), within its bound.
 *
 * undici refs a connection's socket while a request uses it, so `ref()` is made a no-op on the
 * sockets of this agent (and of it alone). A connection still being opened (a DNS lookup, a TCP
 * handshake to a host that drops packets) is not covered: it holds the process for at most the
 * connect timeout.
 *
 * @example
 * const agent = createBackgroundAgent();
 * const client = new AqmClient({ apiKey, baseUrl, dispatcher: agent });
 */
export function createBackgroundAgent(): Agent {
  const connect = buildConnector({});
  return new Agent({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connect(options, callback) {
      connect(options, (error, socket) => {
        // undici passes no socket at all (not null) when the connection failed.
        if (error !== null && error !== undefined) callback(error, null);
        else if (socket !== null && socket !== undefined) callback(null, unrefForGood(socket));
        else callback(new Error('undici gave neither a socket nor an error'), null);
      });
    },
  });
}

function unrefForGood<S extends Socket>(socket: S): S {
  socket.unref();
  socket.ref = () => socket;
  return socket;
}
