import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { chatSpan } from './mapping-helpers/chat-span.js';
import { buildTrace } from './mapping-helpers/spans.js';

/**
 * A resource as the SDK 2.x line has it while NodeSDK's detectors are pending: reading
 * `attributes` then logs a diag warning and gives the synchronous values only.
 */
class PendingResource {
  reads = 0;
  asyncAttributesPending = true;
  #settled = { 'service.name': 'svc' } as Record<string, unknown>;
  get attributes(): Record<string, unknown> {
    this.reads += 1;
    return this.#settled;
  }
  async waitForAsyncAttributes(): Promise<void> {
    await Promise.resolve();
    this.#settled = { ...this.#settled, 'deployment.environment.name': 'staging' };
    this.asyncAttributesPending = false;
  }
}

function withResource(span: ReadableSpan, resource: PendingResource): ReadableSpan {
  return Object.create(span, { resource: { value: resource } }) as ReadableSpan;
}

describe('a resource whose detected attributes are still pending (NodeSDK default detectors)', () => {
  it('is not read while pending, and is settled for the traces that follow', async () => {
    const resource = new PendingResource();
    const built = buildTrace(chatSpan('Question?', 'Answer.'));
    const spans = built.spans.map((span) => withResource(span, resource));
    const first = buildTraceRecord(spans, [], { maxValueChars: 1_000 });
    expect(first).toMatchObject({ prompt: 'Question?', response: 'Answer.' });
    expect(first?.environment).toBeUndefined();
    expect(resource.reads).toBe(0);

    await Promise.resolve(); // the settling started by the first trace
    await Promise.resolve();
    expect(resource.asyncAttributesPending).toBe(false);
    const second = buildTraceRecord(spans, [], { maxValueChars: 1_000 });
    expect(second?.environment).toBe('staging');
  });
});
