import { aqm, aqmErrorHandler } from '@aqm/express';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expressVersions, fetchRaw, listen, type RunningServer } from './helpers/server.js';
import { endedSpan, resetSpans } from './helpers/tracing.js';

let server: RunningServer | undefined;
beforeEach(() => resetSpans());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

class QuotaError extends Error {
  override name = 'QuotaError';
}

const requestSpan = (path: string) =>
  endedSpan((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === path, `for ${path}`);

describe.each(expressVersions)('aqmErrorHandler() on $name', ({ express }) => {
  it("records a handler's thrown error on the request span and passes it to the next error handler", async () => {
    const app = express();
    app.use(aqm());
    app.get('/sync', () => {
      throw new QuotaError('model quota exceeded');
    });
    app.get('/next', (_req, _res, next) => {
      setImmediate(() => next(new TypeError('bad tool output')));
    });
    app.get('/string', (_req, _res, next) => {
      next('plain string failure');
    });
    app.use(aqmErrorHandler());
    const seenByApp: unknown[] = [];
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      seenByApp.push(error);
      res.status(500).json({ error: 'sorry' });
    });
    server = await listen(app);

    const response = await fetchRaw(`${server.url}/sync`);
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body.toString())).toEqual({ error: 'sorry' });
    const sync = await requestSpan('/sync');
    expect(sync.status).toEqual({ code: SpanStatusCode.ERROR, message: 'model quota exceeded' });
    expect(sync.attributes['error.type']).toBe('QuotaError');
    const [event] = sync.events;
    expect(event?.name).toBe('exception');
    expect(event?.attributes).toMatchObject({
      'exception.type': 'QuotaError',
      'exception.message': 'model quota exceeded',
    });

    await fetchRaw(`${server.url}/next`);
    const later = await requestSpan('/next');
    expect(later.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad tool output' });
    expect(later.attributes['error.type']).toBe('TypeError');

    await fetchRaw(`${server.url}/string`);
    const text = await requestSpan('/string');
    expect(text.status).toEqual({ code: SpanStatusCode.ERROR, message: 'plain string failure' });
    expect(text.attributes['error.type']).toBe('_OTHER');

    expect(seenByApp).toHaveLength(3);
    expect(seenByApp[0]).toBeInstanceOf(QuotaError);
    expect(seenByApp[2]).toBe('plain string failure');
  });

  it("leaves Express's default error response in place when it is the last error handler", async () => {
    const app = express();
    app.use(aqm());
    app.get('/', () => {
      throw new Error('kaput');
    });
    app.use(aqmErrorHandler());
    server = await listen(app);
    const plain = express();
    plain.get('/', () => {
      throw new Error('kaput');
    });
    const plainServer = await listen(plain);
    try {
      const [withHandler, without] = [await fetchRaw(server.url), await fetchRaw(plainServer.url)];
      expect(withHandler.status).toBe(500);
      expect(withHandler.status).toBe(without.status);
      const span = await requestSpan('/');
      // The handler's message, not the generic one a bare 500 would give.
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'kaput' });
    } finally {
      await plainServer.close();
    }
  });
});

describe('aqmErrorHandler() on Express 5', () => {
  it('records the rejection of an async handler', async () => {
    const { default: express } = await import('express');
    const app = express();
    app.use(aqm());
    app.get('/async', async () => {
      await Promise.resolve();
      throw new RangeError('context window exceeded');
    });
    app.use(aqmErrorHandler());
    server = await listen(app);
    expect((await fetchRaw(`${server.url}/async`)).status).toBe(500);
    const span = await requestSpan('/async');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'context window exceeded' });
    expect(span.attributes['error.type']).toBe('RangeError');
  });

  it('has the four parameters Express needs to see an error handler, and rejects being mounted uncalled', () => {
    expect(aqmErrorHandler()).toHaveLength(4);
    const misuse = aqmErrorHandler as unknown as (...args: unknown[]) => unknown;
    expect(() => misuse({}, {}, () => {})).toThrow(
      'aqmErrorHandler() takes no arguments and returns the error handler: write app.use(aqmErrorHandler()), not app.use(aqmErrorHandler)',
    );
  });
});
