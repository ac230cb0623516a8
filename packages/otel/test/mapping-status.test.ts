import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { chatSpan, map } from './mapping-helpers/chat-span.js';
import { buildTrace } from './mapping-helpers/spans.js';

describe('buildTraceRecord: status and errors', () => {
  it("uses the exception event's message when the status has none", () => {
    const built = buildTrace({
      ...chatSpan('q', ''),
      exception: new Error('socket hang up'),
      status: { code: SpanStatusCode.ERROR },
    });
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'socket hang up' });
  });

  it('uses error.type when there is neither a status message nor an exception event', () => {
    const built = buildTrace({
      ...chatSpan('q', '', { 'error.type': 'APIConnectionError' }),
      status: { code: SpanStatusCode.ERROR },
    });
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'APIConnectionError' });
  });

  it('marks the trace as error when a nested model call failed, with that message', () => {
    const built = buildTrace({
      name: 'RunnableSequence',
      attributes: { 'openinference.span.kind': 'CHAIN', 'input.value': 'q' },
      children: [
        { ...chatSpan('q', ''), status: { code: SpanStatusCode.ERROR, message: 'context length exceeded' } },
      ],
    });
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'context length exceeded' });
  });

  it('does not mark the trace as error for a failed tool span', () => {
    const built = buildTrace({
      name: 'RunnableSequence',
      attributes: { 'openinference.span.kind': 'CHAIN', 'input.value': 'q', 'output.value': 'a' },
      children: [
        chatSpan('q', 'a'),
        {
          name: 'search',
          attributes: { 'openinference.span.kind': 'TOOL' },
          status: { code: SpanStatusCode.ERROR, message: 'tool failed' },
        },
      ],
    });
    const record = map(built.spans);
    expect(record.status).toBe('success');
    expect(record.errorMessage).toBeUndefined();
  });

  it('reads a Langfuse ERROR level as an error', () => {
    const built = buildTrace({
      name: 'gen',
      attributes: {
        'langfuse.observation.type': 'generation',
        'langfuse.observation.input': 'q',
        'langfuse.observation.level': 'ERROR',
        'langfuse.observation.status_message': 'provider refused',
      },
    });
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'provider refused' });
  });
});
