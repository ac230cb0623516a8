import { connect } from 'node:net';
import { type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers.js';

describe('errors and odd input', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(() => llm.close());

  it('answers malformed JSON with 400 in the OpenAI shape, and in the Anthropic shape on /v1/messages', async () => {
    for (const route of ['chat/completions', 'responses', 'embeddings']) {
      const { status, json } = await rawRequest(`${llm.url}/${route}`, { body: '{"model": "gpt-4o",' });
      expect(status).toBe(400);
      expect(json).toEqual({
        error: {
          message: expect.stringContaining('request body must be valid JSON'),
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    }
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const { status, json } = await rawRequest(`${llm.anthropicUrl}${path}`, { body: 'not json' });
      expect(status).toBe(400);
      expect(json).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('valid JSON') },
      });
    }
    const empty = await rawRequest(`${llm.url}/chat/completions`, { body: '' });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ error: { message: expect.stringContaining('empty body') } });
  });

  it('names the missing or ill-typed field and the value it got', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['/v1/chat/completions', { messages: [] }, /^model must be a non-empty string, got undefined$/],
      [
        '/v1/chat/completions',
        { model: 'm', messages: 'hi' },
        /^messages must be a non-empty array, got "hi"$/,
      ],
      [
        '/v1/chat/completions',
        { model: 'm', messages: [{ content: 'x' }] },
        /^messages\[0\] must be an object/,
      ],
      [
        '/v1/chat/completions',
        { model: 'm', messages: [{ role: 'user' }], max_tokens: -1 },
        /max_tokens must be a positive integer, got number -1/,
      ],
      ['/v1/responses', { model: 'm' }, /^input must be a string or an array/],
      ['/v1/responses', { model: 'm', input: [42] }, /^input\[0\] must be an object, got number 42$/],
      ['/v1/embeddings', { model: 'm', input: [] }, /^input must be a string, an array/],
      [
        '/v1/embeddings',
        { model: 'm', input: 'x', encoding_format: 'hex' },
        /encoding_format must be "float" or "base64", got "hex"/,
      ],
      ['/v1/messages', { model: 'm', max_tokens: 5 }, /^messages must be a non-empty array, got undefined$/],
      ['/v1/chat/completions', [1, 2], /^request body must be a JSON object, got an array$/],
    ];
    for (const [path, body, message] of cases) {
      const { status, json } = await rawRequest(`${llm.anthropicUrl}${path}`, { body: JSON.stringify(body) });
      expect(status, path).toBe(400);
      const error = (json as { error: { message: string } }).error;
      expect(error.message).toMatch(message);
    }
  });

  it('answers unknown routes 404 and wrong methods 405 with Allow', async () => {
    const missing = await rawRequest(`${llm.url}/completions`, { body: '{}' });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      error: { type: 'not_found_error', message: 'no route for POST /v1/completions' },
    });
    const root = await rawRequest(`${llm.anthropicUrl}/`, { method: 'GET' });
    expect(root.status).toBe(404);
    const wrong = await rawRequest(`${llm.url}/chat/completions`, { method: 'GET' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const wrongModels = await rawRequest(`${llm.url}/models`, { method: 'DELETE' });
    expect(wrongModels.status).toBe(405);
    expect(wrongModels.headers.get('allow')).toBe('GET');
  });

  it('never fails with a 5xx on odd bodies, and keeps serving', async () => {
    const odd: unknown[] = [
      null,
      42,
      'text',
      {},
      { model: 42 },
      { model: 'm', messages: [null] },
      { model: 'm', messages: [{ role: 'user', content: null }] },
      { model: 'm', messages: [{ role: 'user', content: [null, 7, { type: 'image_url' }, { text: 3 }] }] },
      { model: 'm', messages: [{ role: 'tool', content: 'orphan result', tool_call_id: 5 }] },
      {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        tools: [null, { function: null }, { type: 'function' }],
      },
      {
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        tools: 'all',
        tool_choice: { type: 'function' },
      },
      {
        model: 'm',
        max_tokens: 3,
        messages: [{ role: 'user', content: [{ type: 'tool_result' }, 'x', null] }],
      },
      {
        model: 'm',
        max_tokens: 3,
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ name: 't', input_schema: { required: 'x' } }],
      },
      {
        model: 'm',
        input: [{ type: 'function_call_output' }, { type: 'reasoning' }, { role: 'user', content: {} }],
      },
      { model: 'm', input: '', stream: 'yes', stream_options: 5, tools: {} },
      { model: 'm', input: [[1, 2], [3]] },
      { model: 'm', input: ['a', 3] },
      { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 1.5 },
      { model: 'm', messages: [{ role: 'user', content: 'x' }], dimensions: 'big' },
      { ['__proto__']: { polluted: true }, model: 'm', messages: [{ role: 'user', content: 'x' }] },
    ];
    const paths = [
      '/v1/chat/completions',
      '/v1/responses',
      '/v1/embeddings',
      '/v1/messages',
      '/v1/messages/count_tokens',
    ];
    for (const path of paths) {
      for (const body of odd) {
        const { status, text } = await rawRequest(`${llm.anthropicUrl}${path}`, {
          body: JSON.stringify(body),
        });
        expect(status, `${path} ${JSON.stringify(body)}: ${text}`).toBeLessThan(500);
      }
    }
    const weirdPaths = ['/v1/models/%E0%A4%A', '/v1//chat', '/v1/chat/completions?x=1&y', '/%00'];
    for (const path of weirdPaths) {
      const { status } = await rawRequest(`${llm.anthropicUrl}${path}`, { method: 'GET' });
      expect(status, path).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const ok = await rawRequest(`${llm.url}/chat/completions`, {
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'still there?' }] }),
    });
    expect(ok.status).toBe(200);
  });

  it('answers a request that is not HTTP with 400 and closes the socket', async () => {
    const port = new URL(llm.anthropicUrl).port;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
  });

  it('answers a body over 16 MiB with 413', async () => {
    const body = JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'x'.repeat(17 * 1024 * 1024) }],
    });
    const result = await fetch(`${llm.url}/chat/completions`, { method: 'POST', body }).then(
      (r) => r.status,
      () => 'connection closed',
    );
    expect(result).toBe(413);
  });
});
