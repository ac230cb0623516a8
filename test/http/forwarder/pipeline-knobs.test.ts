import { maskPII } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

// The forwarder feeds @aqm/otel's pipeline, so its knobs apply to OTLP traffic as they do in-process.
let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-knobs');
});
afterAll(async () => {
  await stack?.close();
});

describe('the @aqm/otel knobs apply to what the forwarder receives', () => {
  it('mask (maskPII) rewrites the text before it leaves', async () => {
    const forwarder = await stack.forwarder({ rootGraceMs: 0, mask: maskPII });
    const { traceId, spans } = llmTraceSpans(
      'Mail me at jane.doe@example.com please',
      'Sent to jane.doe@example.com.',
    );
    expect((await postOtlp(forwarder.url, protoBody(spans))).status).toBe(200);
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the trace delivered');
    const trace = await stack.service.client.traces.get(stack.applicationId, traceId);
    expect(trace.prompt).toBe('Mail me at [EMAIL] please');
    expect(trace.response).toBe('Sent to [EMAIL].');
  });

  it('sampleRate 0 and shouldExport leave traces out, counted', async () => {
    const sampled = await stack.forwarder({ rootGraceMs: 0, sampleRate: 0 });
    await postOtlp(sampled.url, protoBody(llmTraceSpans('sampled?', 'out.').spans));
    await waitFor(() => sampled.stats().pipeline.sampledOutTraces === 1, 'the trace sampled out');
    const filtered = await stack.forwarder({ rootGraceMs: 0, shouldExport: () => false });
    await postOtlp(filtered.url, protoBody(llmTraceSpans('filtered?', 'out.').spans));
    await waitFor(() => filtered.stats().pipeline.filteredTraces === 1, 'the trace filtered');
    expect(sampled.stats().pipeline.exportedTraces + filtered.stats().pipeline.exportedTraces).toBe(0);
  });

  it('refuses an invalid pipeline option at start, naming it', async () => {
    await expect(stack.forwarder({ traceIdleMs: -1 })).rejects.toThrow(/traceIdleMs/);
  });
});
