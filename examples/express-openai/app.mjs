import { aqm, aqmErrorHandler } from '@aqm/express';
import express from 'express';
import OpenAI from 'openai';

const SYSTEM_PROMPT = 'You are the support assistant of Acme Travel. Answer briefly and politely.';
// Turns kept per session: enough for a short chat, and memory stays bounded.
const MAX_HISTORY_MESSAGES = 10;

/**
 * The chat service: `POST /chat` with `{ "message": "..." }` and an `x-session-id` header answers
 * `{ "reply": "..." }` from an OpenAI chat model, remembering the session's last turns.
 *
 * Tracing needs nothing here but `aqm()`: it makes each request a span with the session id, and
 * the OpenAI instrumentation (set up in `tracing.mjs`) makes the model call its child.
 *
 * @param {{ llm: { baseURL: string, apiKey: string, model: string } }} options The model upstream.
 * @returns {import('express').Express}
 * @example
 * const app = createChatApp({ llm: { baseURL: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' } });
 * app.listen(3000);
 */
export function createChatApp({ llm }) {
  const openai = new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey });
  /** @type {Map<string, Array<{ role: 'user' | 'assistant', content: string }>>} */
  const histories = new Map();

  const app = express();
  app.use(express.json());
  app.use(
    aqm({
      sessionId: (req) => req.get('x-session-id'),
      environment: 'example',
      appVersion: '1.0.0',
    }),
  );

  app.post('/chat', async (req, res) => {
    const message = req.body?.message;
    if (typeof message !== 'string' || message.trim() === '') {
      res.status(400).json({ error: '`message` must be a non-empty string' });
      return;
    }
    const sessionId = req.get('x-session-id') ?? 'anonymous';
    const history = histories.get(sessionId) ?? [];
    const completion = await openai.chat.completions.create({
      model: llm.model,
      messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...history, { role: 'user', content: message }],
    });
    const reply = completion.choices[0]?.message?.content ?? '';
    history.push({ role: 'user', content: message }, { role: 'assistant', content: reply });
    histories.set(sessionId, history.slice(-MAX_HISTORY_MESSAGES));
    res.json({ reply });
  });

  app.use(aqmErrorHandler());
  return app;
}
