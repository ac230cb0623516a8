import { createServer, type Server, type Socket } from 'node:net';

/** A loopback server that accepts connections and never answers. */
export interface SilentServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Ends every connection still open, then stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a server on a free loopback port that accepts connections and never writes a byte: a
 * service (or a proxy, never answering its CONNECT) that hangs, unlike a closed port that refuses.
 *
 * @example
 * const silent = await startSilentServer();
 * // AQM_BASE_URL: silent.url
 * await silent.close();
 */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
