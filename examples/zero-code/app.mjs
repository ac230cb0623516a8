// An ordinary app: it calls OpenAI and prints the answers. There is no tracing code here at all;
// started with `node --import @aqm/auto/register app.mjs`, every call still reaches AQM.
// OPENAI_BASE_URL and OPENAI_API_KEY are read by the `openai` package itself.
import OpenAI from 'openai';

const openai = new OpenAI();
const model = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';

const QUESTIONS = [
  'What documents do I need to rent a car?',
  'Can I return the rental car at a different location?',
  'Hello there!',
];

for (const question of QUESTIONS) {
  const completion = await openai.chat.completions.create({
    model,
    messages: [{ role: 'user', content: question }],
  });
  console.log(`user: ${question}\nassistant: ${completion.choices[0]?.message?.content ?? ''}`);
}
