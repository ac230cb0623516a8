import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { map } from './mapping-helpers/chat-span.js';
import { buildTrace, json, type SpanSpec } from './mapping-helpers/spans.js';
import { plainCall } from './mapping-helpers/tool-loop.js';

// A failed call is an error from all the evidence: status, a convention's level, an `exception`
// event on a span that has no output, and the app's own root span.

const QUESTION = 'What is the capital of France?';

function appSpan(children: SpanSpec[], failed = false): SpanSpec {
  return {
    name: 'POST /ask',
    kind: SpanKind.SERVER,
    children,
    ...(failed ? { status: { code: SpanStatusCode.ERROR } } : {}),
  };
}

/** LangSmith's OTel mode: a run written with status OK, its failure only in an exception event. */
function langsmithRun(kind: 'chain' | 'llm', children: SpanSpec[] = []): SpanSpec {
  return {
    name: kind === 'llm' ? 'ChatOpenAI' : 'ask',
    scope: 'langsmith',
    attributes: {
      'langsmith.span.kind': kind,
      'langsmith.trace.name': 'ask',
      'gen_ai.prompt': json(
        kind === 'llm' ? { messages: [{ role: 'user', content: QUESTION }] } : { input: QUESTION },
      ),
      ...(kind === 'llm' ? { 'gen_ai.request.model': 'gpt-4o-mini' } : {}),
    },
    status: { code: SpanStatusCode.OK },
    exception: Object.assign(new Error('500 the model is down'), { name: 'InternalServerError' }),
    children,
  };
}

describe('failure from all the evidence', () => {
  it('LangSmith-like: status OK, an exception event and no output, the app root ERROR', () => {
    const built = buildTrace(appSpan([langsmithRun('chain', [langsmithRun('llm')])], true));
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: '500 the model is down' });
  });

  it('an exception event on a model call without output, status left UNSET, nothing else', () => {
    const built = buildTrace(
      appSpan([{ ...plainCall(QUESTION, undefined), exception: new Error('socket hang up') }]),
    );
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'socket hang up' });
  });

  it('takes exception.type when the exception has no message', () => {
    const call: SpanSpec = {
      ...plainCall(QUESTION, undefined),
      events: [{ name: 'exception', attributes: { 'exception.type': 'APIConnectionError' } }],
    };
    expect(map(buildTrace(call).spans)).toMatchObject({
      status: 'error',
      errorMessage: 'APIConnectionError',
    });
  });

  it("the app root's ERROR counts when its model call carries an exception event", () => {
    const call = { ...plainCall(QUESTION, 'Paris.'), exception: new Error('stream cut') };
    const built = buildTrace(appSpan([call], true));
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'stream cut' });
  });

  it('a Langfuse span observation with level ERROR at the root, its generation with an exception event', () => {
    // The generation answered before it threw (a stream cut short): the root's level decides.
    const built = buildTrace({
      name: 'ask',
      scope: 'langfuse-sdk',
      attributes: {
        'langfuse.observation.type': 'span',
        'langfuse.observation.level': 'ERROR',
        'langfuse.observation.status_message': 'the model is down',
      },
      children: [
        {
          name: 'openai.chat',
          scope: 'langfuse-sdk',
          attributes: {
            'langfuse.observation.type': 'generation',
            'langfuse.observation.input': json([{ role: 'user', content: QUESTION }]),
            'langfuse.observation.output': json({ role: 'assistant', content: 'Par' }),
            'langfuse.observation.model.name': 'gpt-4o-mini',
          },
          exception: new Error('terminated'),
        },
      ],
    });
    expect(map(built.spans)).toMatchObject({ status: 'error', errorMessage: 'the model is down' });
  });
});

describe('what is not a failure', () => {
  it('a handled exception on a call that still answered', () => {
    const built = buildTrace(
      appSpan([{ ...plainCall(QUESTION, 'Paris.'), exception: new Error('retrying') }]),
    );
    const record = map(built.spans);
    expect(record).toMatchObject({ status: 'success', response: 'Paris.' });
    expect(record.errorMessage).toBeUndefined();
  });

  it('a failed attempt that a later call answered (a retry)', () => {
    const built = buildTrace(
      appSpan([
        { ...plainCall(QUESTION, undefined), exception: new Error('429') },
        plainCall(QUESTION, 'Paris.'),
      ]),
    );
    expect(map(built.spans)).toMatchObject({ status: 'success', response: 'Paris.' });
  });

  it("the app root's ERROR alone (the model answered; something else failed)", () => {
    const built = buildTrace(appSpan([plainCall(QUESTION, 'Paris.')], true));
    expect(map(built.spans)).toMatchObject({ status: 'success', response: 'Paris.' });
  });
});
