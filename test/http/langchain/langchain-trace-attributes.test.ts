import { withAqmAttributes } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AIMessage,
  ChatPromptTemplate,
  RunnableSequence,
  ScriptedChatModel,
  StringOutputParser,
} from '../../../packages/langchain/test/helpers/http-test-deps.js';
import { startTracedLangchain, type TracedLangchain } from './helpers/traced-langchain.js';

describe('LangChain tags and metadata, and withAqmAttributes around a chain → local service', () => {
  let lc: TracedLangchain;
  beforeAll(async () => {
    lc = await startTracedLangchain('langchain-attributes');
  });
  afterAll(async () => {
    await lc?.close();
  });

  /** A template → scripted chat model → parser chain named `name`. */
  function chain(name: string) {
    const model = new ScriptedChatModel({
      model: 'attributes-model',
      replies: [new AIMessage({ content: 'Oslo.' })],
    });
    return RunnableSequence.from([
      ChatPromptTemplate.fromMessages([['human', '{question}']]),
      model,
      new StringOutputParser(),
    ]).withConfig({ runName: name });
  }

  /** The stored record of the trace whose root span is `invoke_workflow {name}`. */
  async function storedFor(name: string) {
    await lc.processor.forceFlush();
    return lc.client.traces.get(lc.applicationId, lc.traceIdOf(`invoke_workflow ${name}`));
  }

  it("a call's tags and metadata reach the record's metadata (LangChain's own left out); ids still from metadata", async () => {
    await chain('tagged_chain').invoke(
      { question: 'Capital of Norway?' },
      {
        callbacks: [lc.handler],
        tags: ['support', 'beta'],
        metadata: {
          tenant: 'acme',
          seats: 5,
          session_id: 'lc-session',
          user_id: 'lc-user',
          nested: { a: 1 },
        },
      },
    );
    const stored = await storedFor('tagged_chain');
    expect(stored.userId).toBe('lc-user');
    expect(stored.sessionId).toBe('lc-session');
    expect(stored.metadata).toMatchObject({ tenant: 'acme', seats: 5, 'aqm.tags': '["support","beta"]' });
    const keys = Object.keys(stored.metadata ?? {});
    expect(keys.filter((key) => /^(ls_|session_id|user_id|nested)/.test(key))).toEqual([]);
  });

  it('withAqmAttributes around the chain: its ids beat LangChain metadata ids, the run’s own metadata beats the scope’s, tags add up', async () => {
    await withAqmAttributes(
      { userId: 'app-user', metadata: { tenant: 'scope-tenant', region: 'eu' }, tags: ['scope'] },
      async () => {
        await lc.client.applications.get(lc.applicationId); // real I/O before the chain starts
        await chain('scoped_chain').invoke(
          { question: 'Capital of Norway?' },
          {
            callbacks: [lc.handler],
            tags: ['lc'],
            metadata: { tenant: 'acme', user_id: 'lc-user', session_id: 'lc-session' },
          },
        );
      },
    );
    const stored = await storedFor('scoped_chain');
    expect(stored.userId).toBe('app-user');
    expect(stored.sessionId).toBe('lc-session');
    expect(stored.metadata).toMatchObject({ tenant: 'acme', region: 'eu', 'aqm.tags': '["lc","scope"]' });
  });
});
