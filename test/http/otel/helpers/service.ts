import { randomUUID } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';

/** The local service with one project, its key and a client to read back what was stored. */
export interface TestService {
  srv: RunningServer;
  client: AqmClient;
  apiKey: string;
  projectId: string;
  /** Creates an application of the project and returns its id. */
  createApp(label: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the local service on a free loopback port. */
export async function startTestService(label: string): Promise<TestService> {
  const apiKey = `otel-e2e-${randomUUID()}`;
  const projectId = `otel-e2e-${label}`;
  const srv = await startServer({ apiKeys: [{ key: apiKey, projectId }] });
  const client = new AqmClient({ apiKey, baseUrl: srv.url });
  return {
    srv,
    client,
    apiKey,
    projectId,
    createApp: async (name) => (await client.applications.create({ name: `${name}-${randomUUID()}` })).id,
    close: async () => {
      await client.close();
      await srv.close();
    },
  };
}

/** What the service holds for an application: `pagination.total` and every stored traceId. */
export async function storedTraces(
  client: AqmClient,
  applicationId: string,
): Promise<{ total: number; traceIds: Set<string> }> {
  const first = await client.traces.list(applicationId, { limit: 100 });
  const traceIds = new Set<string>();
  for await (const trace of client.traces.iterate(applicationId, { limit: 100 })) traceIds.add(trace.traceId);
  return { total: first.pagination.total, traceIds };
}

/** Whether two sets hold the same members. */
export function sameMembers(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}
