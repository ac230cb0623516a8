import type { Server } from '@grpc/grpc-js';
import type { DiagLogger } from '@opentelemetry/api';

/** The receive window of each call (HTTP/2 stream): a 256-trace OTLP request is about 800 KB. */
export const STREAM_WINDOW_BYTES = 1024 * 1024;
/** The receive window of each connection, shared by its calls. */
export const CONNECTION_WINDOW_BYTES = 4 * 1024 * 1024;

interface Http2ServerLike {
  updateSettings(settings: { initialWindowSize: number }): void;
  on(event: 'session', listener: (session: { setLocalWindowSize(size: number): void }) => void): unknown;
}

function isHttp2Server(value: unknown): value is Http2ServerLike {
  const candidate = value as Partial<Http2ServerLike> | null;
  return typeof candidate?.updateSettings === 'function' && typeof candidate.on === 'function';
}

/**
 * Widens the HTTP/2 receive windows of a bound grpc-js server from Node's 64 KiB. With 64 KiB, a
 * sender must wait for a WINDOW_UPDATE after each 64 KiB, and the forwarder sends one only on a
 * turn of its event loop: under load an 800 KB OTLP request took a dozen busy turns (measured at
 * 5,000 traces/s: call p50 28-42 ms and p99 216-528 ms, against 20-22 and 60-114 ms with these
 * windows). grpc-js (1.14) has no server option for them yet (grpc/grpc-node#3058 adds
 * `grpc-node.flow_control_window`), so its HTTP/2 servers are reached through a field it does not
 * document; when that field is not there, the receiver keeps Node's windows (slower, not wrong)
 * and says so at debug level. The windows bound nothing the receiver would not take anyway: a
 * call's message is read whole (up to `maxBodyBytes`) before it is handled.
 *
 * @returns whether the windows were widened.
 */
export function widenFlowControlWindows(server: Server, logger: DiagLogger): boolean {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  const found = servers instanceof Map ? [...servers.keys()].filter(isHttp2Server) : [];
  if (found.length === 0) {
    logger.debug('gRPC receiver: HTTP/2 windows left at 64 KiB (this grpc-js does not expose its servers)');
    return false;
  }
  for (const http2Server of found) {
    // Sent in the SETTINGS of every new connection: each call's window.
    http2Server.updateSettings({ initialWindowSize: STREAM_WINDOW_BYTES });
    http2Server.on('session', (session) => {
      try {
        session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
      } catch {
        // A session already closing: nothing to widen.
      }
    });
  }
  return true;
}
