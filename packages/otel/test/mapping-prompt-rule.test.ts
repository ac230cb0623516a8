import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { mapTrace } from './mapping-helpers/expect-record.js';
import { buildTrace, json, type SpanSpec } from './mapping-helpers/spans.js';

// The prompt rule for chains (README, "Where each record field comes from"), for every convention
// that traces chains, in the three shapes that decide it:
// - template: `ChatPromptTemplate | model | parser`; the root input is the variable ("France"), the
//   model's last user message is the question.
// - RAG with a traced retriever: the root input is the question; the model's user message wraps
//   it in the retrieved documents.
// - RAG whose retrieval is not traced: a step's variables (`{context, question}`) carry the text
//   that wraps the question.

const SYSTEM = 'You answer geography questions.';
const TEMPLATE_QUESTION = 'What is the capital of France?';
const ANSWER = 'Paris is the capital of France.';
const QUESTION = 'What is OpenTelemetry?';
const DOCS = ['OpenTelemetry is a CNCF observability project.', 'It collects traces, metrics and logs.'];
const CONTEXT_TEXT = DOCS.join('\n\n');
const RAG_MESSAGE = `Answer from the context only.\n\nContext:\n${CONTEXT_TEXT}\n\nQuestion: ${QUESTION}`;
const RAG_ANSWER = 'An observability framework.';

const lc = (className: string, content: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'messages', className],
  kwargs: { content, additional_kwargs: {}, response_metadata: {} },
});

/** How one convention records the runs of a chain. */
interface Convention {
  name: string;
  chain(inputs: Record<string, string>, answer: string, children: SpanSpec[]): SpanSpec;
  model(user: string, answer: string): SpanSpec;
  /** A retriever run with its documents, when the convention records them. */
  retriever?(query: string, documents: string[]): SpanSpec;
  /** A prompt-template step with its input variables, when the convention records them. */
  step?(variables: Record<string, string>): SpanSpec;
}

const openInference: Convention = {
  name: 'OpenInference',
  chain: (inputs, answer, children) => {
    const values = Object.values(inputs);
    return {
      name: 'RunnableSequence',
      attributes: {
        'openinference.span.kind': 'CHAIN',
        // One string value is recorded as that string (text/plain), as the instrumentation does.
        'input.value': values.length === 1 ? values[0]! : json(inputs),
        'input.mime_type': values.length === 1 ? 'text/plain' : 'application/json',
        'output.value': answer,
        'output.mime_type': 'text/plain',
      },
      children,
    };
  },
  model: (user, answer) => ({
    name: 'ChatOpenAI',
    attributes: {
      'openinference.span.kind': 'LLM',
      'llm.model_name': 'gpt-4o-mini',
      'llm.input_messages.0.message.role': 'system',
      'llm.input_messages.0.message.content': SYSTEM,
      'llm.input_messages.1.message.role': 'user',
      'llm.input_messages.1.message.content': user,
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.content': answer,
    },
  }),
  retriever: (query, documents) => ({
    name: 'VectorStoreRetriever',
    attributes: {
      'openinference.span.kind': 'RETRIEVER',
      'input.value': query,
      ...Object.fromEntries(documents.map((d, i) => [`retrieval.documents.${i}.document.content`, d])),
    },
  }),
  step: (variables) => ({
    name: 'ChatPromptTemplate',
    attributes: {
      'openinference.span.kind': 'PROMPT',
      'input.value': json(variables),
      'input.mime_type': 'application/json',
      'llm.prompt_template.variables': json(variables),
    },
  }),
};

const traceloop: Convention = {
  name: 'Traceloop',
  chain: (inputs, answer, children) => ({
    name: 'workflow RunnableSequence',
    scope: '@traceloop/instrumentation-langchain',
    attributes: {
      'gen_ai.operation.name': 'workflow',
      'gen_ai.provider.name': 'langchain',
      'traceloop.span.kind': 'workflow',
      'traceloop.workflow.name': 'RunnableSequence',
      'traceloop.entity.input': json(inputs),
      'traceloop.entity.output': json({ output: answer }),
    },
    children,
  }),
  model: (user, answer) => ({
    name: 'chat gpt-4o-mini',
    kind: SpanKind.CLIENT,
    scope: '@traceloop/instrumentation-langchain',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.input.messages': json([
        { role: 'system', parts: [{ type: 'text', content: SYSTEM }] },
        { role: 'user', parts: [{ type: 'text', content: user }] },
      ]),
      'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]),
    },
  }),
  // Traceloop's LangChain instrumentation has no retriever handler.
  step: (variables) => ({
    name: 'workflow prompt',
    scope: '@traceloop/instrumentation-langchain',
    attributes: {
      'gen_ai.operation.name': 'workflow',
      'traceloop.span.kind': 'workflow',
      'traceloop.workflow.name': 'prompt',
      'traceloop.entity.input': json(variables),
      'traceloop.entity.output': json({ lc: 1, type: 'constructor', id: ['ChatPromptValue'], kwargs: {} }),
    },
  }),
};

const langsmith: Convention = {
  name: 'LangSmith',
  chain: (inputs, answer, children) => ({
    name: 'RunnableSequence',
    scope: 'langsmith',
    attributes: {
      'langsmith.span.kind': 'chain',
      'gen_ai.operation.name': 'chain',
      'langsmith.is_root': true,
      'gen_ai.prompt': json(inputs),
      'gen_ai.completion': json({ output: answer }),
    },
    children,
  }),
  model: (user, answer) => ({
    name: 'ChatOpenAI',
    scope: 'langsmith',
    attributes: {
      'langsmith.span.kind': 'llm',
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.prompt': json({ messages: [[lc('SystemMessage', SYSTEM), lc('HumanMessage', user)]] }),
      'gen_ai.completion': json({ generations: [[{ text: answer, message: lc('AIMessage', answer) }]] }),
    },
  }),
  retriever: (query, documents) => ({
    name: 'VectorStoreRetriever',
    scope: 'langsmith',
    attributes: {
      'langsmith.span.kind': 'retriever',
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.prompt': json({ query }),
      'gen_ai.completion': json({ documents: documents.map((pageContent) => ({ pageContent })) }),
    },
  }),
  step: (variables) => ({
    name: 'ChatPromptTemplate',
    scope: 'langsmith',
    attributes: {
      'langsmith.span.kind': 'prompt',
      'gen_ai.operation.name': 'chat',
      'gen_ai.prompt': json(variables),
    },
  }),
};

const langfuse: Convention = {
  name: 'Langfuse',
  chain: (inputs, answer, children) => ({
    name: 'RunnableSequence',
    scope: 'langfuse-sdk',
    attributes: {
      'langfuse.observation.type': 'chain',
      'langfuse.observation.input': json(inputs),
      'langfuse.observation.output': answer,
    },
    children,
  }),
  model: (user, answer) => ({
    name: 'ChatOpenAI',
    scope: 'langfuse-sdk',
    attributes: {
      'langfuse.observation.type': 'generation',
      'langfuse.observation.model.name': 'gpt-4o-mini',
      'langfuse.observation.input': json([
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ]),
      'langfuse.observation.output': json({ role: 'assistant', content: answer }),
    },
  }),
  // Langfuse's retriever observations carry documents in no convention of their own: the
  // untraced-retrieval path (a step's variables) covers them.
  step: (variables) => ({
    name: 'ChatPromptTemplate',
    scope: 'langfuse-sdk',
    attributes: { 'langfuse.observation.type': 'span', 'langfuse.observation.input': json(variables) },
  }),
};

const aqmLangchain: Convention = {
  name: '@aqm/langchain',
  // Its chain spans keep the one input that stands for the variables (`chain-values.ts`).
  chain: (inputs, answer, children) => ({
    name: 'invoke_workflow RunnableSequence',
    scope: '@aqm/langchain',
    attributes: {
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.input.messages': json([
        { role: 'user', parts: [{ type: 'text', content: inputs.question ?? Object.values(inputs)[0] }] },
      ]),
      'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]),
    },
    children,
  }),
  model: (user, answer) => ({
    name: 'chat gpt-4o-mini',
    kind: SpanKind.CLIENT,
    scope: '@aqm/langchain',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.system_instructions': json([{ type: 'text', content: SYSTEM }]),
      'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: user }] }]),
      'gen_ai.output.messages': json([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]),
    },
  }),
  retriever: (query, documents) => ({
    name: 'retrieval VectorStoreRetriever',
    scope: '@aqm/langchain',
    attributes: {
      'gen_ai.operation.name': 'retrieval',
      'gen_ai.retrieval.query.text': query,
      'aqm.retrieval.documents': json(documents),
    },
  }),
};

const CONVENTIONS = [openInference, traceloop, langsmith, langfuse, aqmLangchain];

describe.each(CONVENTIONS)('the prompt of a chain traced by $name', (convention) => {
  it('template chain: the model’s last user message, not the template variable', () => {
    const built = buildTrace(
      convention.chain({ country: 'France' }, ANSWER, [
        ...(convention.step === undefined ? [] : [convention.step({ country: 'France' })]),
        convention.model(TEMPLATE_QUESTION, ANSWER),
      ]),
    );
    const record = mapTrace(built);
    expect(record.prompt).toBe(TEMPLATE_QUESTION);
    expect(record.response).toBe(ANSWER);
    expect(record.context).toBeUndefined();
  });

  it.skipIf(convention.retriever === undefined)(
    'RAG chain with a traced retriever: the root input, the documents as context',
    () => {
      const built = buildTrace(
        convention.chain({ question: QUESTION }, RAG_ANSWER, [
          convention.retriever!(QUESTION, DOCS),
          convention.model(RAG_MESSAGE, RAG_ANSWER),
        ]),
      );
      const record = mapTrace(built);
      expect(record.prompt).toBe(QUESTION);
      expect(record.response).toBe(RAG_ANSWER);
      expect(record.context).toEqual(DOCS);
    },
  );

  it.skipIf(convention.step === undefined)(
    'RAG chain whose retrieval is not traced: the root input, the context variable as context',
    () => {
      const built = buildTrace(
        convention.chain({ question: QUESTION }, RAG_ANSWER, [
          convention.step!({ context: CONTEXT_TEXT, question: QUESTION }),
          convention.model(RAG_MESSAGE, RAG_ANSWER),
        ]),
      );
      const record = mapTrace(built);
      expect(record.prompt).toBe(QUESTION);
      expect(record.response).toBe(RAG_ANSWER);
      expect(record.context).toEqual([CONTEXT_TEXT]);
    },
  );

  it('a template around the question that nothing else in the trace explains: the model’s message', () => {
    const message = `Reply in one line, politely.\n\n${QUESTION}`;
    const built = buildTrace(
      convention.chain({ question: QUESTION }, RAG_ANSWER, [convention.model(message, RAG_ANSWER)]),
    );
    expect(mapTrace(built).prompt).toBe(message);
  });
});

describe('the prompt rule’s edges', () => {
  it('a short step value (a template parameter) is not taken for context', () => {
    const built = buildTrace(
      openInference.chain({ question: QUESTION }, RAG_ANSWER, [
        openInference.step!({ language: 'English', question: QUESTION }),
        openInference.model(`Answer in English.\n${QUESTION}`, RAG_ANSWER),
      ]),
    );
    const record = mapTrace(built);
    expect(record.prompt).toBe(`Answer in English.\n${QUESTION}`);
    expect(record.context).toBeUndefined();
  });

  it('a root input the model never saw: the model’s message', () => {
    const built = buildTrace(
      openInference.chain({ question: 'what about its size?' }, ANSWER, [
        openInference.retriever!('size of Paris', DOCS),
        openInference.model('How large is Paris?', ANSWER),
      ]),
    );
    expect(mapTrace(built).prompt).toBe('How large is Paris?');
  });

  it('looks at a bounded number of step values: a wrapping variable past them is not found', () => {
    const steps = (count: number) =>
      Array.from({ length: count }, (_, i) => openInference.step!({ step: `value ${i}` }));
    const trace = (before: number) =>
      buildTrace(
        openInference.chain({ question: QUESTION }, RAG_ANSWER, [
          ...steps(before),
          openInference.step!({ context: CONTEXT_TEXT, question: QUESTION }),
          openInference.model(RAG_MESSAGE, RAG_ANSWER),
        ]),
      );
    expect(mapTrace(trace(10)).prompt).toBe(QUESTION);
    expect(mapTrace(trace(300)).prompt).toBe(RAG_MESSAGE);
  });

  it('a chain with no model call keeps its own input', () => {
    const built = buildTrace(openInference.chain({ question: QUESTION }, RAG_ANSWER, []));
    expect(mapTrace(built).prompt).toBe(QUESTION);
  });
});
