import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-lookup');
});
afterAll(async () => {
  await stack?.close();
});

describe('an application named by the forwarder or a resource', () => {
  it('is looked up again while the service fails, and the traces held meanwhile are delivered', async () => {
    const { srv } = stack.service;
    srv.setFaults({ rules: [{ route: 'applications.list', status: 503 }] });
    srv.resetRequestCounts();
    const name = `lookup-${randomUUID()}`;
    const forwarder = await stack.forwarder({
      applicationId: undefined,
      applicationName: name,
      rootGraceMs: 0,
    });
    const { traceId, spans } = llmTraceSpans('lookup question?', 'lookup answer.');
    expect((await postOtlp(forwarder.url, protoBody(spans))).status).toBe(200);
    // Tried at start and again after the first back-off: still failing, nothing sent yet.
    await waitFor(() => srv.requestCount('applications.list') >= 2, 'a second lookup');
    expect(forwarder.stats().pipeline.exportedTraces).toBe(0);
    srv.setFaults(null);
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the held trace delivered');
    const [application] = (await stack.service.client.applications.list({ search: name })).data;
    expect((await stack.service.client.traces.get(application?.id as string, traceId)).prompt).toBe(
      'lookup question?',
    );
  });
});
