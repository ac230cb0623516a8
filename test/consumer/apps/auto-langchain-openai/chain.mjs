// @aqm/auto with LangChain and its OpenAI chat model: `node --import @aqm/auto/register chain.mjs`.
// The `openai` call inside the chat run is instrumented too; it must join the chain's trace (one
// trace per question, not two), so the app says it expects exactly one trace with its prompt.
import { startFakeLlm } from '@aqm/fake-llm';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { ChatOpenAI } from '@langchain/openai';

const llm = await startFakeLlm();
const question = `What is the capital of France? (auto-langchain-openai, ESM, ${process.pid})`;
try {
  const model = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'test', configuration: { baseURL: llm.url } });
  const chain = ChatPromptTemplate.fromMessages([
    ['system', 'Answer in one sentence.'],
    ['human', '{question}'],
  ])
    .pipe(model)
    .pipe(new StringOutputParser());
  await chain.invoke({ question });
} finally {
  await llm.close();
}
console.log(JSON.stringify({ prompt: question, traces: 1 }));
