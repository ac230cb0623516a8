import { type ApiKey, type RunningServer, startServer } from '@aqm/server';

/**
 * The local service down when a test starts, on a port known in advance, started later on that
 * same port: for what a client does while the service cannot be reached, and once it answers.
 */
export interface LateService {
  /** A loopback port the service listened on and no longer does: connections to it are refused. */
  stoppedPort(): Promise<number>;
  /** Starts the service on `port` (it was down until now). */
  startOn(port: number): Promise<RunningServer>;
  /** Closes every service `startOn` started: for an `afterEach`. */
  closeAll(): Promise<void>;
}

/** A {@link LateService} that accepts `apiKeys`. */
export function lateService(apiKeys: ApiKey[]): LateService {
  const servers: RunningServer[] = [];
  return {
    async stoppedPort() {
      const server = await startServer({ port: 0, apiKeys });
      const { port } = server;
      await server.close();
      return port;
    },
    async startOn(port) {
      const server = await startServer({ port, apiKeys });
      servers.push(server);
      return server;
    },
    async closeAll() {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    },
  };
}
