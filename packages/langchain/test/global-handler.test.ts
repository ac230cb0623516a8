import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clearGlobalAqmHandler, setGlobalAqmHandler } from '@aqm/langchain';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { RunnableSequence } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { setupTracing } from './helpers/tracing.js';

// Own file: the global handler lives in LangChain's async-local context, so it must not leak into other tests.
describe('a handler set globally', () => {
  it('rejects something that is not a callback handler', () => {
    expect(() => setGlobalAqmHandler({} as never)).toThrow(
      'Expected `handler` to be a LangChain callback handler such as an AqmCallbackHandler, got object',
    );
    expect(() => setGlobalAqmHandler(null as never)).toThrow('got `null`');
  });

  it('traces runs with no callbacks option, once even when also passed per call, until cleared', async () => {
    const t = setupTracing();
    const chain = RunnableSequence.from([
      new FakeListChatModel({ responses: ['global'] }),
      new StringOutputParser(),
    ]);
    setGlobalAqmHandler(t.handler);

    await expect(chain.invoke('hi')).resolves.toBe('global');
    const first = t.spans().map((s) => s.name);
    expect(first).toContain('chat');
    expect(first).toContain('invoke_workflow RunnableSequence');

    t.exporter.reset();
    await chain.invoke('hi', { callbacks: [t.handler] });
    expect(
      t
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual([...first].sort());

    // A request served later, from a socket opened after the handler was set, is traced too.
    t.exporter.reset();
    const server = createServer((_req, res) => {
      chain.invoke('from a request').then(
        (answer) => res.end(answer),
        () => res.writeHead(500).end(),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(await response.text()).toBe('global');
    } finally {
      server.close();
    }
    expect(t.spans().map((s) => s.name)).toContain('chat');

    clearGlobalAqmHandler();
    t.exporter.reset();
    await chain.invoke('hi');
    expect(t.spans()).toHaveLength(0);
  });
});
