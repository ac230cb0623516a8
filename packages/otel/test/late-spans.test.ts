import { afterEach, describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import type { ReadableSpan } from '../src/sdk-types.js';
import { fakeLlmSpan, randomTraceId } from './export-helpers/fake-span.js';
import { aqmOptions } from './export-helpers/otel-setup.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

// LangSmith's OTel mode ends its runs' spans from a background queue, after the app's request span
// has ended: the trace completes at its root with no LLM span in it. Those spans must still make a
// record, and spans left out of a record already sent must be said without any logging set up.
const setup = withServiceAndStderr();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function processor(): AqmSpanProcessor {
  const made = new AqmSpanProcessor(aqmOptions(setup.service(), { batchDelayMs: 0, traceIdleMs: 50 }));
  closers.push(() => made.shutdown());
  return made;
}

/** The app's own request span (no LLM attributes), a root. */
function appSpan(traceId: string, spanId: string): ReadableSpan {
  const span = fakeLlmSpan(traceId, {});
  return {
    ...span,
    name: 'POST /ask',
    kind: 1,
    spanContext: () => ({ traceId, spanId, traceFlags: 1 }),
    attributes: { 'http.route': '/ask' },
  };
}

function storedTraceIds(): string[] {
  return setup.service().requests.flatMap((request) => request.traces.map((trace) => trace.traceId));
}

describe('LLM spans that end after the root span', () => {
  it('of a trace that made no record at its root: still make one (before: nothing was sent)', async () => {
    const aqm = processor();
    const traceId = randomTraceId();
    aqm.onEnd(appSpan(traceId, 'aaaaaaaaaaaaaaaa'));
    // The root completed the trace: nothing to send yet.
    aqm.onEnd(fakeLlmSpan(traceId, {}, 'aaaaaaaaaaaaaaaa'));
    await aqm.forceFlush();
    expect(storedTraceIds()).toEqual([traceId]);
    expect(aqm.stats()).toMatchObject({ skippedTraces: 1 });
    expect(setup.stderrLines()).toEqual([]);
  });

  it('of a trace already sent: said once on stderr, with no logging set up', async () => {
    const aqm = processor();
    const traceId = randomTraceId();
    aqm.onEnd(fakeLlmSpan(traceId, {}));
    aqm.onEnd(fakeLlmSpan(traceId, {}, 'aaaaaaaaaaaaaaaa'));
    aqm.onEnd(fakeLlmSpan(traceId, {}, 'aaaaaaaaaaaaaaaa'));
    await aqm.forceFlush();
    expect(storedTraceIds()).toEqual([traceId]);
    const lines = setup.stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`A span of trace ${traceId} ended after the trace's root span`);
    expect(lines[0]).toContain('awaitPendingTraceBatches');
  });
});
