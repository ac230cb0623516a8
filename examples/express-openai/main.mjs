// Runs the chat app against AQM: the local service and the fake model unless AQM_BASE_URL
// (and OPENAI_BASE_URL) say otherwise. Drives a few conversations with fetch, flushes the
// traces, then prints what the service recorded.
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { sendChat, serve } from './chat-server.mjs';
import { setUpTracing } from './tracing.mjs';

const CONVERSATIONS = [
  {
    sessionId: 'session-refund',
    messages: ['Hello!', 'What is your refund policy for cancelled flights?'],
  },
  { sessionId: 'session-baggage', messages: ['How much checked baggage can I bring on a flight?'] },
];

await runExample('express-openai', async () => {
  const env = await startLocalEnvironment({ name: 'example-express-openai' });
  try {
    console.log(describeEnvironment(env));
    const tracing = setUpTracing(env.aqm);
    // Imported only now, after the tracing setup, so the instrumentation sees `openai` load.
    const { createChatApp } = await import('./app.mjs');
    const server = await serve(createChatApp({ llm: env.llm }));

    let turns = 0;
    try {
      for (const { sessionId, messages } of CONVERSATIONS) {
        for (const message of messages) {
          const reply = await sendChat(server.url, { sessionId, message });
          console.log(`[${sessionId}] user: ${message}\n[${sessionId}] assistant: ${reply}`);
          turns += 1;
        }
      }
    } finally {
      await server.close(); // once closed, every request span has ended
    }
    await tracing.flush();
    await tracing.shutdown();
    await printRecordedTraces(env, { expectedTraces: turns });
  } finally {
    await env.close();
  }
});
