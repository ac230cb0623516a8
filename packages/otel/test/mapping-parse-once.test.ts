import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

function twoSpanLlmTrace() {
  return buildTrace({
    name: 'invoke_agent helper',
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper' },
    children: [
      {
        name: 'chat gpt-4o',
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.system_instructions': json([{ type: 'text', content: 'Be brief.' }]),
          'gen_ai.input.messages': json([
            { role: 'user', parts: [{ type: 'text', content: 'What is 2+2?' }] },
          ]),
          'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: '4' }] }]),
          'gen_ai.usage.input_tokens': 10,
          'gen_ai.usage.output_tokens': 1,
        },
      },
    ],
  });
}

// CPU cost per trace is measured in bench/ against the OTLP exporter, never in a timed unit test.
describe('buildTraceRecord work per trace', () => {
  it('parses each JSON attribute at most once per trace', () => {
    const built = twoSpanLlmTrace();
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const record = buildTraceRecord(built.spans, [], { maxValueChars: 32_768 });
      expect(record?.prompt).toBe('What is 2+2?');
      // system instructions, input messages, output messages: one parse each.
      expect(parse).toHaveBeenCalledTimes(3);
    } finally {
      parse.mockRestore();
    }
  });
});
