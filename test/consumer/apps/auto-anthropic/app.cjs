// The zero-code path from CommonJS with the Anthropic SDK as npm installs it today (1.x):
// `node --require @aqm/auto/register app.cjs`. A plain call and a streamed one: one trace each.
const { startFakeLlm } = require('@aqm/fake-llm');
const Anthropic = require('@anthropic-ai/sdk');

async function main() {
  const llm = await startFakeLlm();
  const prompt = `Which river flows through Vienna? (auto-anthropic, CJS, ${process.pid})`;
  try {
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl });
    const ask = (suffix) => ({
      model: 'claude-haiku-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: `${prompt} ${suffix}` }],
    });
    await anthropic.messages.create(ask('[create]'));
    await anthropic.messages.stream(ask('[helper]')).finalMessage();
  } finally {
    await llm.close();
  }
  console.log(JSON.stringify({ prompt, traces: 2 }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
