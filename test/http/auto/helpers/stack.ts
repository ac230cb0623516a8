import { AqmClient } from '@aqm/client';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { type RunningServer, startServer } from '@aqm/server';
import type { Trace } from '@aqm/wire';

/** The local service, a fake model upstream, and a client reading what the service stored. */
export interface Stack {
  readonly server: RunningServer;
  readonly url: string;
  readonly llm: FakeLlm;
  readonly client: AqmClient;
  /** The environment of an app run: connection, fake upstream, and `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** A new application's id. */
  createApplication(name: string): Promise<string>;
  /** Every trace of the application, read one by one (prompt, response, model, usage, spans). */
  traces(applicationId: string): Promise<Trace[]>;
  close(): Promise<void>;
}

export const API_KEY = 'aqm-auto-test-key-0d5c1f';

/**
 * Starts `@aqm/server` and `@aqm/fake-llm` on loopback ports chosen by the system.
 *
 * @example
 * const stack = await startStack();
 * await stack.close();
 */
export async function startStack(): Promise<Stack> {
  const server = await startServer({ port: 0, apiKeys: [{ key: API_KEY, projectId: 'auto-tests' }] });
  const llm = await startFakeLlm({ port: 0 });
  const client = new AqmClient({ apiKey: API_KEY, baseUrl: server.url });
  return {
    server,
    url: server.url,
    llm,
    client,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? '',
      AQM_API_KEY: API_KEY,
      AQM_BASE_URL: server.url,
      FAKE_OPENAI_URL: llm.url,
      FAKE_ANTHROPIC_URL: llm.anthropicUrl,
      ...extra,
    }),
    createApplication: async (name) => (await client.applications.create({ name })).id,
    async traces(applicationId) {
      const traces: Trace[] = [];
      for await (const summary of client.traces.iterate(applicationId)) {
        traces.push(await client.traces.get(applicationId, summary.traceId));
      }
      return traces;
    },
    async close() {
      await client.close();
      await llm.close();
      await server.close();
    },
  };
}
