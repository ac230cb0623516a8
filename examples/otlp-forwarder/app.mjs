// An ordinary LLM app: it asks OpenAI (or any OpenAI-compatible model at OPENAI_BASE_URL) two
// questions, one of them streamed. It knows nothing of AQM or of tracing.
import OpenAI from 'openai';

const openai = new OpenAI(); // OPENAI_API_KEY and OPENAI_BASE_URL from the environment
const model = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
const SYSTEM = 'You are the support assistant of Acme Travel. Answer briefly.';
const QUESTIONS = [
  process.env.QUESTION_ONE ?? 'What is your refund policy for cancelled flights?',
  process.env.QUESTION_TWO ?? 'How much checked baggage can I bring?',
];

const [first, second] = QUESTIONS;
const completion = await openai.chat.completions.create({
  model,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: first },
  ],
});
console.log(`user: ${first}`);
console.log(`assistant: ${completion.choices[0]?.message.content ?? ''}`);

const stream = await openai.chat.completions.create({
  model,
  stream: true,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: second },
  ],
});
let streamed = '';
for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? '';
console.log(`user: ${second}`);
console.log(`assistant: ${streamed}`);
