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

describe('buildTraceRecord performance', () => {
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

  it('maps a 2-span LLM trace well under 100 µs on average', () => {
    const built = twoSpanLlmTrace();
    const options = { maxValueChars: 32_768 };
    for (let i = 0; i < 2000; i += 1) buildTraceRecord(built.spans, [], options); // warm-up
    const runs = 5000;
    // CPU time of this process, not wall time: other processes sharing the machine do not count.
    const started = process.cpuUsage();
    for (let i = 0; i < runs; i += 1) buildTraceRecord(built.spans, [], options);
    const used = process.cpuUsage(started);
    const microseconds = (used.user + used.system) / runs;
    console.info(`buildTraceRecord: ${microseconds.toFixed(1)} µs of CPU per 2-span trace`);
    expect(microseconds).toBeLessThan(100);
  });
});
