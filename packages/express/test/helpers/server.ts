import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';

/** Both Express majors the middleware supports, for `describe.each`. */
export const expressVersions = [
  { name: 'Express 5', express: express5 },
  { name: 'Express 4', express: express4 },
] as const;

export type ExpressFactory = typeof express5;

/** A server listening on a loopback port chosen by the OS. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Longer than any test: idle keep-alive connections are closed by the client or by close(). */
const TEST_KEEP_ALIVE_TIMEOUT_MS = 10 * 60_000;

/** Serves `listener` on 127.0.0.1, port 0. */
export async function listen(
  listener: RequestListener<typeof IncomingMessage, typeof ServerResponse>,
): Promise<RunningServer> {
  const server = createServer(listener);
  // fetch() keeps connections alive and reuses them. With Node's default keepAliveTimeout (5 s), a
  // test that goes idle that long on a busy machine can send its next request on a connection the
  // server is closing at that very moment: `fetch failed` (ECONNRESET). Here the server never closes
  // an idle connection during a test (close() below ends them all), and the client's own idle
  // timeout, which it derives from the `keep-alive: timeout=…` header, closes first. Every test
  // server gets the same value, so the plain and the traced servers still answer alike.
  server.keepAliveTimeout = TEST_KEEP_ALIVE_TIMEOUT_MS;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A response read in full: status, headers (without `date`, which changes each second) and raw bytes. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends a request and reads the whole response. */
export async function fetchRaw(url: string, init?: RequestInit): Promise<RawResponse> {
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (key !== 'date') headers[key] = value;
  });
  return { status: response.status, headers, body };
}
