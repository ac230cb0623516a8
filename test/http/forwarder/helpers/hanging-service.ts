import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { type ForwarderOptions, type RunningForwarder, startForwarder } from '@aqm/forwarder';

/** A forwarder in front of a service that accepts connections and never answers. */
export interface HangingStack {
  forwarder: RunningForwarder;
  /** Closes the forwarder, then the service and its sockets. */
  close(): Promise<void>;
}

/**
 * Starts a forwarder whose service never answers: every batch stays in flight, so its queue
 * fills and stays full (`options` set the bounds).
 */
export async function startForwarderBeforeHangingService(options: ForwarderOptions): Promise<HangingStack> {
  const sockets = new Set<Socket>();
  const hanging = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const port = (hanging.address() as { port: number }).port;
  const forwarder = await startForwarder({
    apiKey: 'hanging-key',
    baseUrl: `http://127.0.0.1:${port}/api`,
    applicationId: randomUUID(),
    port: 0,
    rootGraceMs: 0,
    batchDelayMs: 0,
    shutdownTimeoutMs: 300,
    ...options,
  });
  return {
    forwarder,
    async close() {
      await forwarder.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    },
  };
}
