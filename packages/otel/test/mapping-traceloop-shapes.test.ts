import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json, type SpanSpec } from './mapping-helpers/spans.js';

// Shapes recorded from @traceloop/instrumentation-openai and -langchain 0.27 against the fake model.

describe('Traceloop shapes', () => {
  it('a Responses API input recorded as one user part holding JSON.stringify(input): that JSON’s last user message', () => {
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'Name a colour.' }] }];
    const built = buildTrace({
      name: 'chat gpt-4o-mini',
      kind: SpanKind.CLIENT,
      scope: '@traceloop/instrumentation-openai',
      attributes: {
        'gen_ai.provider.name': 'openai',
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: json(input) }] }]),
        'gen_ai.output.messages': json([
          { role: 'assistant', finish_reason: 'stop', parts: [{ type: 'text', content: 'Blue.' }] },
        ]),
      },
    });
    expect(mapTrace(built)).toMatchObject({ prompt: 'Name a colour.', response: 'Blue.' });
  });

  it('a user message that only looks like JSON stays as it is', () => {
    const built = buildTrace({
      name: 'chat gpt-4o-mini',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: '[1, 2, 3]' }] }]),
        'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: '6' }] }]),
      },
    });
    expect(mapTrace(built).prompt).toBe('[1, 2, 3]');
  });

  it('unparented LangChain runs (siblings under the request span, started out of order): the enclosing chain is the top', () => {
    const workflow = (
      name: string,
      input: unknown,
      output: unknown,
      children: SpanSpec[] = [],
    ): SpanSpec => ({
      name: `workflow ${name}`,
      scope: '@traceloop/instrumentation-langchain',
      attributes: {
        'gen_ai.operation.name': 'workflow',
        'traceloop.span.kind': 'workflow',
        'traceloop.entity.input': json(input),
        'traceloop.entity.output': json(output),
      },
      children,
    });
    // The inner sequence (retriever | format) starts first and ends early; the outer chain
    // encloses every run. Both are children of the request span.
    const built = buildTrace({
      name: 'POST /ask',
      kind: SpanKind.SERVER,
      children: [
        workflow(
          'RunnableSequence',
          { input: 'What is OpenTelemetry?' },
          { output: 'Retrieved text about it.' },
        ),
        workflow('RunnableSequence', { input: 'What is OpenTelemetry?' }, { output: 'The final answer.' }, [
          // Nested here only to make it last longer; the rule compares the spans' own times.
          { name: 'inner work' },
          { name: 'more inner work' },
        ]),
        {
          name: 'chat gpt-4o-mini',
          kind: SpanKind.CLIENT,
          scope: '@traceloop/instrumentation-langchain',
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-4o-mini',
            'gen_ai.input.messages': json([
              { role: 'user', parts: [{ type: 'text', content: 'What is OpenTelemetry?' }] },
            ]),
            'gen_ai.output.messages': json([
              { role: 'assistant', parts: [{ type: 'text', content: 'The final answer.' }] },
            ]),
          },
        },
      ],
    });
    const record = mapTrace(built);
    expect(record.response).toBe('The final answer.');
    expect(record.prompt).toBe('What is OpenTelemetry?');
  });

  it('with no span around the chain, each LangChain run is its own trace: only the model call’s is a record', () => {
    const run = (name: string, input: unknown, output: unknown) =>
      buildTrace({
        name: `workflow ${name}`,
        scope: '@traceloop/instrumentation-langchain',
        attributes: {
          'gen_ai.operation.name': 'workflow',
          'traceloop.span.kind': 'workflow',
          'traceloop.entity.input': json(input),
          'traceloop.entity.output': json(output),
        },
      });
    for (const piece of [
      run('RunnableSequence', { country: 'France' }, { output: 'Paris.' }),
      run(
        'prompt',
        { country: 'France' },
        { lc: 1, type: 'constructor', id: ['ChatPromptValue'], kwargs: {} },
      ),
      run('parser', { content: 'Paris.' }, { output: 'Paris.' }),
    ]) {
      expect(buildTraceRecord(piece.spans, piece.logs, { maxValueChars: 1_000 })).toBeUndefined();
    }
    // The same chain span from another instrumentation, alone with both sides, is still an interaction.
    const own = buildTrace({
      name: 'workflow RunnableSequence',
      scope: 'my-app',
      attributes: {
        'traceloop.span.kind': 'workflow',
        'traceloop.entity.input': json({ question: 'What is the capital of France?' }),
        'traceloop.entity.output': json({ output: 'Paris.' }),
      },
    });
    expect(mapTrace(own)).toMatchObject({ prompt: 'What is the capital of France?', response: 'Paris.' });
  });
});
