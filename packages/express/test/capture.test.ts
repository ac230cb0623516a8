import { type AqmExpressOptions, aqm, type CapturedResponseInfo } from '@aqm/express';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Request, Response } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ExpressFactory,
  expressVersions,
  fetchRaw,
  listen,
  type RunningServer,
} from './helpers/server.js';
import { captureDiag, endedSpan, resetSpans } from './helpers/tracing.js';

let server: RunningServer | undefined;
beforeEach(() => resetSpans());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Seen = { body: unknown; info: CapturedResponseInfo };

/** One app with `aqm({ capture })` in front of `handler`; returns what `capture.response` saw. */
async function serve(
  express: ExpressFactory,
  handler: (req: Request, res: Response) => void,
  options: AqmExpressOptions<Request> = {},
): Promise<Seen[]> {
  const seen: Seen[] = [];
  const app = express();
  app.use(
    aqm<Request>({
      capture: {
        prompt: (req) => String(req.query.q ?? ''),
        response: (body, info) => {
          seen.push({ body, info });
          return typeof body === 'string' ? body : JSON.stringify(body);
        },
      },
      ...options,
    }),
  );
  app.get('/', handler);
  server = await listen(app);
  return seen;
}

const requestSpan = () => endedSpan((span: ReadableSpan) => span.kind === SpanKind.SERVER, 'of kind SERVER');

function messagesOf(span: ReadableSpan, key: 'gen_ai.input.messages' | 'gen_ai.output.messages') {
  const value = span.attributes[key];
  return typeof value === 'string'
    ? (JSON.parse(value) as Array<{ role: string; parts: unknown[] }>)
    : undefined;
}

function outputText(span: ReadableSpan): string | undefined {
  const [message] = messagesOf(span, 'gen_ai.output.messages') ?? [];
  return (message?.parts[0] as { content?: string } | undefined)?.content;
}

describe.each(expressVersions)('aqm({ capture }) on $name', ({ express }) => {
  it('records the prompt and the value given to res.json, as invoke_workflow messages', async () => {
    const seen = await serve(express, (_req, res) => {
      res.json({ reply: 'Paris', tokens: [1, 2] });
    });
    await fetchRaw(`${server!.url}/?q=capital%20of%20France`);
    const span = await requestSpan();

    expect(seen).toEqual([
      {
        body: { reply: 'Paris', tokens: [1, 2] },
        info: { kind: 'json', events: [], truncated: false, statusCode: 200 },
      },
    ]);
    expect(span.attributes['gen_ai.operation.name']).toBe('invoke_workflow');
    expect(messagesOf(span, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'capital of France' }] },
    ]);
    expect(messagesOf(span, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: JSON.stringify({ reply: 'Paris', tokens: [1, 2] }) }],
        finish_reason: 'stop',
      },
    ]);
    expect(span.attributes).not.toHaveProperty('aqm.capture.truncated');
  });

  it('gives an object passed to res.send as the json value, and a string as text', async () => {
    const seen = await serve(express, (req, res) => {
      if (req.query.q === 'object') res.send({ answer: 42 });
      else res.status(202).send('plain answer');
    });
    await fetchRaw(`${server!.url}/?q=object`);
    await fetchRaw(`${server!.url}/?q=text`);
    await endedSpan((span) => span.attributes['http.response.status_code'] === 202);
    expect(seen.map((s) => [s.body, s.info.kind, s.info.statusCode])).toEqual([
      [{ answer: 42 }, 'json', 200],
      ['plain answer', 'send', 202],
    ]);
  });

  it('gives a Buffer passed to res.send as UTF-8 text', async () => {
    const seen = await serve(express, (_req, res) => {
      res.type('text/plain').send(Buffer.from('héllo wörld', 'utf8'));
    });
    await fetchRaw(server!.url);
    const span = await requestSpan();
    expect(seen[0]).toMatchObject({ body: 'héllo wörld', info: { kind: 'send' } });
    expect(outputText(span)).toBe('héllo wörld');
  });

  it('concatenates the chunks of a streamed response, whatever their encoding', async () => {
    const seen = await serve(express, (_req, res) => {
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.write('The answer ');
      res.write(Buffer.from('is '));
      res.write(Buffer.from('forty-two').toString('base64'), 'base64');
      res.end(' ✓');
    });
    const response = await fetchRaw(server!.url);
    const span = await requestSpan();
    expect(response.body.toString()).toBe('The answer is forty-two ✓');
    expect(seen[0]).toEqual({
      body: 'The answer is forty-two ✓',
      info: { kind: 'stream', events: [], truncated: false, statusCode: 200 },
    });
    expect(outputText(span)).toBe('The answer is forty-two ✓');
  });

  it('gives the concatenated data: payloads of a server-sent event stream', async () => {
    const seen = await serve(express, (_req, res) => {
      res.setHeader('content-type', 'text/event-stream');
      res.flushHeaders();
      res.write(': a comment\n\n');
      res.write('event: token\ndata: Hel\n\n');
      res.write('data:lo,\r\n\r\n');
      res.write('id: 3\ndata:  wor\ndata: ld\n\n');
      res.write('retry: 10\n\n');
      res.end('data: [DONE]\n\n');
    });
    await fetchRaw(server!.url);
    const span = await requestSpan();
    expect(seen[0]).toEqual({
      body: 'Hello, wor\nld[DONE]',
      info: { kind: 'sse', events: ['Hel', 'lo,', ' wor\nld', '[DONE]'], truncated: false, statusCode: 200 },
    });
    expect(outputText(span)).toBe('Hello, wor\nld[DONE]');
  });

  it('uses the body as text when capture.response is not given', async () => {
    const app = express();
    app.get('/json', aqm({ capture: { prompt: () => 'p' } }), (_req, res) => {
      res.json({ a: 1 });
    });
    app.get('/sse', aqm({ capture: { prompt: () => 'p' } }), (_req, res) => {
      res.type('text/event-stream');
      res.write('data: one\n\n');
      res.end('data: two\n\n');
    });
    server = await listen(app);
    await fetchRaw(`${server.url}/json`);
    expect(outputText(await endedSpan((s) => s.attributes['url.path'] === '/json'))).toBe('{"a":1}');
    await fetchRaw(`${server.url}/sse`);
    expect(outputText(await endedSpan((s) => s.attributes['url.path'] === '/sse'))).toBe('onetwo');
  });

  it('records chat messages returned by capture.prompt', async () => {
    const app = express();
    app.use(express.json());
    app.post(
      '/',
      aqm<Request>({
        capture: {
          prompt: (req) => (req.body as { messages: Array<{ role: string; content: string }> }).messages,
          response: (body) => (body as { reply: string }).reply,
        },
      }),
      (_req, res) => {
        res.json({ reply: 'Sure.' });
      },
    );
    server = await listen(app);
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Help me?' },
    ];
    await fetchRaw(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    const span = await requestSpan();
    expect(messagesOf(span, 'gen_ai.input.messages')).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Help me?' }] },
    ]);
    expect(outputText(span)).toBe('Sure.');
  });

  it('keeps at most maxCaptureBytes of a stream and of each text, cutting on a character boundary', async () => {
    // 'é' is 2 bytes in UTF-8: a 9-byte cap falls in the middle of the fifth one.
    const seen = await serve(
      express,
      (_req, res) => {
        res.write('éééé');
        res.end('éééé');
      },
      { maxCaptureBytes: 9 },
    );
    const response = await fetchRaw(`${server!.url}/?q=${encodeURIComponent('ééééé')}`);
    const span = await requestSpan();
    expect(response.body.toString()).toBe('éééééééé');
    expect(seen[0]?.body).toBe('éééé');
    expect(seen[0]?.info.truncated).toBe(true);
    expect(outputText(span)).toBe('éééé');
    expect(messagesOf(span, 'gen_ai.input.messages')?.[0]?.parts).toEqual([
      { type: 'text', content: 'éééé' },
    ]);
    expect(span.attributes['aqm.capture.truncated']).toBe(true);
  });

  it('cuts a long res.json answer to the cap but still hands the whole value to capture.response', async () => {
    const long = 'x'.repeat(300);
    const seen = await serve(
      express,
      (_req, res) => {
        res.json({ long });
      },
      { maxCaptureBytes: 100 },
    );
    await fetchRaw(server!.url);
    const span = await requestSpan();
    expect(seen[0]?.body).toEqual({ long });
    expect(outputText(span)).toBe(JSON.stringify({ long }).slice(0, 100));
    expect(span.attributes['aqm.capture.truncated']).toBe(true);
  });

  it('survives throwing capture functions: the response is unchanged and diag is told', async () => {
    const logged = captureDiag();
    try {
      const app = express();
      app.get(
        '/',
        aqm({
          capture: {
            prompt: () => {
              throw new Error('prompt boom');
            },
            response: () => {
              throw new Error('response boom');
            },
          },
        }),
        (_req, res) => {
          res.json({ fine: true });
        },
      );
      server = await listen(app);
      const response = await fetchRaw(server.url);
      const span = await requestSpan();
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body.toString())).toEqual({ fine: true });
      expect(span.attributes['gen_ai.operation.name']).toBe('invoke_workflow');
      expect(span.attributes).not.toHaveProperty('gen_ai.input.messages');
      expect(span.attributes).not.toHaveProperty('gen_ai.output.messages');
      expect(logged.messages.join('\n')).toMatch(/warn @aqm\/express capture\.prompt threw.*prompt boom/);
      expect(logged.messages.join('\n')).toMatch(/warn @aqm\/express capture\.response threw.*response boom/);
    } finally {
      logged.stop();
    }
  });

  it('reports, and records nothing for, capture functions returning the wrong type', async () => {
    const logged = captureDiag();
    try {
      const app = express();
      app.get(
        '/',
        aqm({
          capture: {
            prompt: () => 42 as unknown as string,
            response: () => ({ not: 'text' }) as unknown as string,
          },
        }),
        (_req, res) => {
          res.send('ok');
        },
      );
      server = await listen(app);
      expect((await fetchRaw(server.url)).body.toString()).toBe('ok');
      const span = await requestSpan();
      expect(span.attributes).not.toHaveProperty('gen_ai.input.messages');
      expect(span.attributes).not.toHaveProperty('gen_ai.output.messages');
      expect(logged.messages.join('\n')).toContain('expected capture.prompt() to return a string');
      expect(logged.messages.join('\n')).toContain('expected capture.response() to return a string');
    } finally {
      logged.stop();
    }
  });

  it('records no response for a response without a body', async () => {
    const seen = await serve(express, (_req, res) => {
      res.status(204).end();
    });
    await fetchRaw(`${server!.url}/?q=hi`);
    const span = await requestSpan();
    expect(seen).toEqual([]);
    expect(messagesOf(span, 'gen_ai.input.messages')).toHaveLength(1);
    expect(span.attributes).not.toHaveProperty('gen_ai.output.messages');
  });
});
