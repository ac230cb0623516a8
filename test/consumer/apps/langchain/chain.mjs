// @aqm/langchain README's runnable example, sent to the service ("Set up tracing once").
import { AqmCallbackHandler } from '@aqm/langchain';
import { AqmSpanProcessor } from '@aqm/otel';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor()] });
provider.register();
const question = `What is the capital of Norway? (langchain, ESM, ${process.pid})`;
const chain = RunnableSequence.from([
  ChatPromptTemplate.fromMessages([
    ['system', 'You are a concise assistant.'],
    ['human', '{question}'],
  ]),
  new FakeListChatModel({ responses: ['Oslo is the capital of Norway.'] }),
  new StringOutputParser(),
]).withConfig({ runName: 'qa_chain' });
await chain.invoke({ question }, { callbacks: [new AqmCallbackHandler()] });
await provider.forceFlush();
await provider.shutdown();
console.log(JSON.stringify({ prompt: question }));
