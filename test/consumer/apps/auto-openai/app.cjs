// The zero-code path from CommonJS: `node --require @aqm/auto/register app.cjs`, `openai` against
// @aqm/fake-llm.
const { startFakeLlm } = require('@aqm/fake-llm');
const OpenAI = require('openai');

async function main() {
  const llm = await startFakeLlm();
  const prompt = `What is the capital of France? (auto-openai, CJS, ${process.pid})`;
  try {
    const openai = new OpenAI({ apiKey: 'test', baseURL: llm.url });
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
    });
  } finally {
    await llm.close();
  }
  console.log(JSON.stringify({ prompt }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
