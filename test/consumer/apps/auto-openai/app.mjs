// The zero-code path with a real model client: `node --import @aqm/auto/register app.mjs`, the
// `openai` package against @aqm/fake-llm (the ESM loader hook must see `import OpenAI`).
import { startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';

const llm = await startFakeLlm();
const prompt = `What is the capital of France? (auto-openai, ESM, ${process.pid})`;
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
