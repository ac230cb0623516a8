/**
 * LangChain and OpenTelemetry for the end-to-end test in `test/http/langchain`. They are
 * development dependencies of `@aqm/langchain`, not of the workspace root, so that test takes them
 * from here: resolved from this package, they are the very module instances `@aqm/langchain`'s
 * build uses.
 */
export { Document } from '@langchain/core/documents';
export { AIMessage, type BaseMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
export { StringOutputParser } from '@langchain/core/output_parsers';
export { ChatPromptTemplate } from '@langchain/core/prompts';
export { RunnableLambda, RunnableSequence } from '@langchain/core/runnables';
export { tool } from '@langchain/core/tools';
export { FakeRetriever } from '@langchain/core/utils/testing';
export { context, SpanKind, trace } from '@opentelemetry/api';
export { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
export {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
export { ScriptedChatModel } from './scripted-chat-model.js';
