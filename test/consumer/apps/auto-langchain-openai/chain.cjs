// @aqm/auto with LangChain and its OpenAI chat model: `node --require @aqm/auto/register chain.cjs`.
// The `openai` call inside the chat run is instrumented too; it must join the chain's trace (one
// trace per question, not two), so the app says it expects exactly one trace with its prompt.
const { startFakeLlm } = require('@aqm/fake-llm');
const { StringOutputParser } = require('@langchain/core/output_parsers');
const { ChatPromptTemplate } = require('@langchain/core/prompts');
const { ChatOpenAI } = require('@langchain/openai');

async function main() {
  const llm = await startFakeLlm();
  const question = `What is the capital of France? (auto-langchain-openai, CJS, ${process.pid})`;
  try {
    const model = new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: 'test',
      configuration: { baseURL: llm.url },
    });
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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
