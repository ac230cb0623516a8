import { once } from 'node:events';

/**
 * Serves an Express app on a free loopback port.
 *
 * @param {import('express').Express} app
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 * @example
 * const server = await serve(createChatApp({ llm }));
 * await server.close();
 */
export async function serve(app) {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the chat server has no TCP address');
  let closed;
  return {
    url: `http://127.0.0.1:${address.port}`,
    // Resolves once every connection is closed, so every request span has ended. Idempotent.
    close: () => {
      closed ??= new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closed;
    },
  };
}

/**
 * Sends one message of a session to the chat endpoint and returns the reply.
 *
 * @param {string} url The chat server's address.
 * @param {{ sessionId: string, message: string }} turn
 * @returns {Promise<string>}
 * @example
 * const reply = await sendChat(server.url, { sessionId: 'abc', message: 'Hello!' });
 */
export async function sendChat(url, { sessionId, message }) {
  const response = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
    body: JSON.stringify({ message }),
  });
  if (!response.ok) {
    throw new Error(`POST /chat answered ${response.status}: ${await response.text()}`);
  }
  const body = await response.json();
  return body.reply;
}
