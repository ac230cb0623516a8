import { evaluationTraceSchema } from '@aqm/wire';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { buildTraceRecord } from '../../src/mapping/build-record.js';
import { json, type SpanSpec } from './spans.js';

/** Record options of the record tests. */
export const OPTIONS = { maxValueChars: 10_000 };

/** A semconv chat span with a user prompt and an answer. */
export function chatSpan(prompt: string, answer: string, extra: SpanSpec['attributes'] = {}): SpanSpec {
  return {
    name: 'chat gpt-4o',
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
      'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]),
      ...extra,
    },
  };
}

/** Maps spans, expecting a record valid against the wire schema. */
export function map(
  spans: readonly ReadableSpan[],
  options: Parameters<typeof buildTraceRecord>[2] = OPTIONS,
) {
  const record = buildTraceRecord(spans, [], options);
  if (record === undefined) throw new Error('expected a record');
  expect(evaluationTraceSchema.safeParse(record).success).toBe(true);
  return record;
}
