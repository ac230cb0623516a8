import type { ReadableSpan } from '../../src/sdk-types.js';

let nextId = 1;

/**
 * A finished GenAI chat span as the SDK hands it to processors and exporters, without a tracer:
 * a root of trace `traceId` unless `parentSpanId` is given.
 */
export function fakeLlmSpan(
  traceId: string,
  attributes: Record<string, unknown> = {},
  parentSpanId?: string,
): ReadableSpan {
  const spanId = (nextId++).toString(16).padStart(16, '0');
  return {
    name: 'chat m',
    kind: 2,
    spanContext: () => ({ traceId, spanId, traceFlags: 1 }),
    parentSpanContext:
      parentSpanId === undefined
        ? undefined
        : { traceId, spanId: parentSpanId, traceFlags: 1, isRemote: false },
    startTime: [1, 0],
    endTime: [2, 0],
    status: { code: 0 },
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
      ...attributes,
    },
    events: [],
    resource: { attributes: {} },
    instrumentationScope: { name: 't' },
  };
}

/** A random 32-hex trace id. */
export function randomTraceId(): string {
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}
