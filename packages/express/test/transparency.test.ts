import { get } from 'node:http';
import { aqm } from '@aqm/express';
import type { Express, Request, Response } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ExpressFactory,
  expressVersions,
  fetchRaw,
  listen,
  type RawResponse,
  type RunningServer,
} from './helpers/server.js';
import { endedSpan, resetSpans } from './helpers/tracing.js';

const servers: RunningServer[] = [];
beforeEach(() => resetSpans());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function statusOf(url: string, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    }).on('error', reject);
  });
}

const bigText = 'lorem ipsum dolor sit amet '.repeat(8000);

/** Every way a handler can answer, mounted on one app. */
function routes(app: Express, returns: unknown[]): void {
  app.get('/json', (_req, res) => {
    res.status(201).json({ reply: 'hi', n: [1, 2, 3], nested: { ok: true } });
  });
  app.get('/send-text', (_req, res) => {
    res.send('<p>hello</p>');
  });
  app.get('/send-buffer', (_req, res) => {
    res.send(Buffer.from([0, 1, 2, 250, 251, 252]));
  });
  app.get('/send-object', (_req, res) => {
    res.send({ answer: 42 });
  });
  app.get('/jsonp', (_req, res) => {
    res.jsonp({ callback: 'yes' });
  });
  app.get('/status', (_req, res) => {
    res.sendStatus(418);
  });
  app.get('/redirect', (_req, res) => {
    res.redirect('/json');
  });
  app.get('/stream', (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    for (let i = 0; i < 20; i++) res.write(`chunk ${i}\n`);
    res.end(Buffer.from('done'));
  });
  app.get('/encoded', (_req, res) => {
    res.setHeader('content-type', 'application/octet-stream');
    res.write(Buffer.from('binary \u00ff').toString('base64'), 'base64');
    res.write('café', 'latin1');
    res.end(Buffer.from('hex end').toString('hex'), 'hex');
  });
  app.get('/big', (_req, res) => {
    res.type('text/plain').send(bigText);
  });
  app.get('/sse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: one\n\n');
    res.write('data: two\n\n');
    res.end();
  });
  app.get('/returns', (_req, res: Response) => {
    res.setHeader('content-type', 'text/plain');
    returns.push(
      res.write('a'),
      res.write(Buffer.from('b'), () => {}),
      res.end('c') === res,
    );
  });
  app.get('/returns-json', (_req, res) => {
    returns.push(res.json({ x: 1 }) === res);
  });
  app.get('/returns-send', (_req, res) => {
    returns.push(res.send('x') === res);
  });
}

async function serveBoth(express: ExpressFactory, middleware: ReturnType<typeof aqm<Request>>) {
  const plainReturns: unknown[] = [];
  const tracedReturns: unknown[] = [];
  const plain = express();
  routes(plain, plainReturns);
  const traced = express();
  traced.use(middleware);
  routes(traced, tracedReturns);
  const [a, b] = await Promise.all([listen(plain), listen(traced)]);
  servers.push(a, b);
  return { plain: a, traced: b, plainReturns, tracedReturns };
}

const paths = [
  '/json',
  '/send-text',
  '/send-buffer',
  '/send-object',
  '/jsonp?callback=cb',
  '/status',
  '/redirect',
  '/stream',
  '/encoded',
  '/big',
  '/sse',
  '/returns',
  '/returns-json',
  '/returns-send',
];

const withCapture = () =>
  aqm<Request>({
    sessionIdHeader: 'x-s',
    capture: { prompt: () => 'question', response: (body) => JSON.stringify(body) },
    maxCaptureBytes: 1024,
  });

describe.each(expressVersions)('the response is untouched by aqm() on $name', ({ express }) => {
  for (const [label, middleware] of [
    ['with capture', withCapture],
    ['without capture', () => aqm<Request>()],
  ] as const) {
    it(`sends the same status, headers and bytes ${label}`, async () => {
      const { plain, traced } = await serveBoth(express, middleware());
      for (const path of paths) {
        for (const init of [{}, { method: 'HEAD' }, { headers: { 'x-s': 's1' } }] as RequestInit[]) {
          const [expected, actual]: RawResponse[] = [
            await fetchRaw(`${plain.url}${path}`, { ...init, redirect: 'manual' }),
            await fetchRaw(`${traced.url}${path}`, { ...init, redirect: 'manual' }),
          ];
          expect({ path, ...actual }).toEqual({ path, ...expected });
        }
      }
      // Conditional GET: the ETag computed from the body still matches, so the answer is 304.
      const first = await fetchRaw(`${traced.url}/send-text`);
      // node:http, because fetch adds `cache-control: no-cache` to conditional requests.
      expect(await statusOf(`${traced.url}/send-text`, { 'if-none-match': first.headers.etag ?? '' })).toBe(
        304,
      );
    });

    it(`passes return values through ${label}`, async () => {
      const { plain, traced, plainReturns, tracedReturns } = await serveBoth(express, middleware());
      for (const path of ['/returns', '/returns-json', '/returns-send']) {
        await fetchRaw(`${plain.url}${path}`);
        await fetchRaw(`${traced.url}${path}`);
      }
      expect(plainReturns).toEqual([true, true, true, true, true]);
      expect(tracedReturns).toEqual(plainReturns);
    });
  }

  it('lets each streamed chunk reach the client before the handler ends the response', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = express();
    app.use(aqm({ capture: { prompt: () => 'p' } }));
    app.get('/live', async (_req, res) => {
      res.type('text/event-stream');
      res.write('data: first\n\n');
      // The handler goes on only once the client has read the first event.
      await released;
      res.end('data: second\n\n');
    });
    const server = await listen(app);
    servers.push(server);

    const response = await fetch(`${server.url}/live`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe('data: second\n\n');
    const span = await endedSpan((s) => s.attributes['url.path'] === '/live');
    expect(span.attributes['gen_ai.output.messages']).toContain('firstsecond');
  });

  it('adds no own property to res when nothing is captured', async () => {
    const app = express();
    let ownKeys: string[] = [];
    app.use(aqm());
    app.get('/', (_req, res) => {
      ownKeys = ['json', 'send', 'write', 'end'].filter((key) => Object.hasOwn(res, key));
      res.end();
    });
    const server = await listen(app);
    servers.push(server);
    await fetchRaw(server.url);
    expect(ownKeys).toEqual([]);
  });
});
