import { type ForwarderOptions, type RunningForwarder, startForwarder } from '@aqm/forwarder';
import { startTestService, type TestService } from '../../otel/helpers/service.js';

/** The local service with an application, and forwarders in front of it (closed by `close()`). */
export interface ForwarderStack {
  service: TestService;
  applicationId: string;
  /** Starts a forwarder on a free loopback port in front of the service. */
  forwarder(options?: ForwarderOptions): Promise<RunningForwarder>;
  close(): Promise<void>;
}

export async function startForwarderStack(label: string): Promise<ForwarderStack> {
  const service = await startTestService(label);
  const applicationId = await service.createApp(label);
  const started: RunningForwarder[] = [];
  return {
    service,
    applicationId,
    async forwarder(options = {}) {
      const forwarder = await startForwarder({
        apiKey: service.apiKey,
        baseUrl: service.srv.url,
        applicationId,
        port: 0,
        batchDelayMs: 0,
        ...options,
      });
      started.push(forwarder);
      return forwarder;
    },
    async close() {
      await Promise.all(started.map((forwarder) => forwarder.close()));
      await service.close();
    },
  };
}
