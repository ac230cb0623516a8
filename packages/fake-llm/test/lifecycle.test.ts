import { createServer } from 'node:net';
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers.js';

describe('startFakeLlm options', () => {
  const bad: Array<[unknown, ErrorConstructor, RegExp]> = [
    [{ port: -1 }, RangeError, /`port` to be an integer from 0 to 65535, got -1/],
    [{ port: 70000 }, RangeError, /`port` .* got 70000/],
    [{ port: '80' }, TypeError, /`port` .* got "80"/],
    [{ port: 1.5 }, TypeError, /`port` .* got number 1.5/],
    [{ host: '' }, TypeError, /`host` to be a non-empty string, got ""/],
    [{ host: 7 }, TypeError, /`host` .* got number 7/],
    [{ respond: 'hello' }, TypeError, /`respond` to be a function .* got "hello"/],
    [{ chunkDelayMs: -5 }, RangeError, /`chunkDelayMs` to be a finite number >= 0, got -5/],
    [{ chunkDelayMs: Number.POSITIVE_INFINITY }, RangeError, /`chunkDelayMs` .* got Infinity/],
    [{ chunkDelayMs: '10' }, TypeError, /`chunkDelayMs` .* got "10"/],
    [{ delay: 5 }, TypeError, /unknown option "delay"; known: port, host, respond, chunkDelayMs/],
    ['fast', TypeError, /options must be an object, got "fast"/],
  ];
  for (const [options, type, message] of bad) {
    it(`rejects ${JSON.stringify(options)}`, async () => {
      const error = await startFakeLlm(options as FakeLlmOptions).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('rejects with the listen error when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      await expect(startFakeLlm({ port: address.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('close() and streaming pace', () => {
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('gives URLs for both clients on the bound port', async () => {
    llm = await startFakeLlm({ host: '127.0.0.1' });
    const port = new URL(llm.anthropicUrl).port;
    expect(llm.url).toBe(`http://127.0.0.1:${port}/v1`);
    expect(llm.anthropicUrl).toBe(`http://127.0.0.1:${port}`);
    expect(Number(port)).toBeGreaterThan(0);
  });

  it('holds each chunk for chunkDelayMs, and close() destroys a stream in progress', async () => {
    llm = await startFakeLlm({ chunkDelayMs: 600_000 });
    const response = await fetch(`${llm.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: 'Tell me a story' }],
      }),
    });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const first = await reader.read();
    const firstText = new TextDecoder().decode(first.value);
    expect(firstText).toContain('"role":"assistant"');
    expect(firstText).not.toContain('[DONE]');
    // With a ten-minute delay, the rest only ends when close() cuts it.
    const rest = (async () => {
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text, failed: false };
        text += new TextDecoder().decode(value);
      }
    })().catch(() => ({ text: '', failed: true }));
    await llm.close();
    const outcome = await rest;
    expect(outcome.text).not.toContain('[DONE]');
    expect(outcome.failed).toBe(true);
  });

  it('closes with idle keep-alive connections open, and close() can be called twice', async () => {
    llm = await startFakeLlm();
    const client = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
    await client.models.list();
    const closing = llm.close();
    expect(llm.close()).toBe(closing);
    await closing;
    await expect(fetch(`${llm.url}/models`)).rejects.toThrow();
  });

  it('streams the whole answer when the delay is small', async () => {
    llm = await startFakeLlm({ chunkDelayMs: 1 });
    const client = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
    const text = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })
      .finalContent();
    expect(text).toMatch(/^Hello!/);
  });
});

describe('a failing respond', () => {
  let llm: FakeLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('is answered 500 in each API shape, and the server keeps serving', async () => {
    let calls = 0;
    llm = await startFakeLlm({
      respond: () => {
        calls++;
        if (calls === 1) throw new Error('boom');
        if (calls === 2) return 42 as unknown as string;
        return 'fine';
      },
    });
    const chatBody = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] });
    const thrown = await rawRequest(`${llm.url}/chat/completions`, { body: chatBody });
    expect(thrown.status).toBe(500);
    expect(thrown.json).toMatchObject({ error: { type: 'server_error', message: 'respond threw: boom' } });
    const messagesBody = JSON.stringify({
      model: 'm',
      max_tokens: 9,
      messages: [{ role: 'user', content: 'x' }],
    });
    const wrongType = await rawRequest(`${llm.anthropicUrl}/v1/messages`, { body: messagesBody });
    expect(wrongType.status).toBe(500);
    expect(wrongType.json).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'respond must return a string, got number' },
    });
    const ok = await rawRequest(`${llm.url}/chat/completions`, {
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(ok.json).toMatchObject({ choices: [{ message: { content: 'fine' } }] });
  });
});
