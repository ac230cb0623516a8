// The zero-code path with the Anthropic SDK as npm installs it today (1.x, which dropped the legacy
// Completions API that Traceloop's patch wraps first): `node --import @aqm/auto/register app.mjs`.
// A plain call, a raw event stream and the MessageStream helper: one trace each.

import Anthropic from '@anthropic-ai/sdk';
import { startFakeLlm } from '@aqm/fake-llm';

const llm = await startFakeLlm();
const prompt = `Which river flows through Vienna? (auto-anthropic, ESM, ${process.pid})`;
try {
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl });
  const ask = (suffix) => ({
    model: 'claude-haiku-4-5',
    max_tokens: 256,
    messages: [{ role: 'user', content: `${prompt} ${suffix}` }],
  });
  await anthropic.messages.create(ask('[create]'));
  const events = await anthropic.messages.create({ ...ask('[stream]'), stream: true });
  for await (const _event of events) {
    // read to the end, as an app does
  }
  await anthropic.messages.stream(ask('[helper]')).finalMessage();
} finally {
  await llm.close();
}
console.log(JSON.stringify({ prompt, traces: 3 }));
