import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defaultRespond } from './default-respond.js';
import type { HandlerContext } from './handler-context.js';
import { checkOptions } from './options.js';
import { route } from './router.js';
import type { FakeChatRequest, FakeLlm, FakeLlmOptions } from './types.js';

/** How many requests `FakeLlm.requests` keeps (the oldest are dropped first). */
export const MAX_RECORDED_REQUESTS = 1000;

/**
 * Starts a deterministic OpenAI- and Anthropic-compatible model server and resolves once it listens.
 * @throws TypeError or RangeError for a bad option, naming it; the listen error (e.g. `EADDRINUSE`).
 * @example
 * ```ts
 * const llm = await startFakeLlm();
 * const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url });
 * const anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl });
 * // ...
 * await llm.close();
 * ```
 */
export async function startFakeLlm(options?: FakeLlmOptions): Promise<FakeLlm> {
  const { port, host, respond, chunkDelayMs } = checkOptions(options);
  const requests: FakeChatRequest[] = [];
  const closing = new AbortController();
  const context: HandlerContext = {
    respond: respond ?? defaultRespond,
    pacing: { chunkDelayMs, signal: closing.signal },
    record(request) {
      requests.push(request);
      if (requests.length > MAX_RECORDED_REQUESTS)
        requests.splice(0, requests.length - MAX_RECORDED_REQUESTS);
    },
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    // `route` answers its own failures; this only guards against a failure while answering one.
    route(req, res, context).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that sends garbage gets a 400 and its socket closed, never an exception in the host app.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const origin = `http://${urlHost(address)}:${address.port}`;
  let closed: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    anthropicUrl: origin,
    requests,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** The host part of the URLs: the bound address, loopback for a wildcard bind (those are not dialable everywhere). */
function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
