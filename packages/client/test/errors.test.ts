import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AqmApiError,
  AqmAuthenticationError,
  AqmClient,
  AqmConflictError,
  AqmError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmValidationError,
  errorFromResponse,
} from '../src/index.js';
import { type Handler, json, startTestServer, type TestServer, text } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';

let server: TestServer;
let client: AqmClient;
beforeAll(async () => {
  server = await startTestServer();
  // No retries here: this file is about which error comes out, not how often it is tried.
  client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 0 });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

async function failure(handler: Handler, call: () => Promise<unknown>): Promise<AqmError> {
  server.reply(handler);
  const err = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AqmError);
  return err as AqmError;
}

describe('error responses map to one class per outcome', () => {
  it('400 → AqmValidationError with the service errors[]', async () => {
    const body = {
      success: false,
      message: 'Validation failed',
      errors: [{ path: 'metrics[1].type', message: 'is not a known metric' }],
    };
    const err = await failure(json(400, body), () =>
      client.monitoring.update(APP, { metrics: [{ type: 'x' }] }),
    );
    expect(err).toBeInstanceOf(AqmValidationError);
    expect(err).toBeInstanceOf(AqmApiError);
    expect(err).toMatchObject({ status: 400, method: 'PUT', path: `/applications/${APP}/monitoring`, body });
    expect((err as AqmValidationError).errors).toEqual(body.errors);
    expect(err.message).toBe(
      `400 Bad Request on PUT /applications/${APP}/monitoring: Validation failed (metrics[1].type is not a known metric)`,
    );
    expect(err.name).toBe('AqmValidationError');
  });

  it('401 (a body without success) → AqmAuthenticationError pointing at the API key', async () => {
    const err = await failure(json(401, { message: 'Invalid API key' }), () => client.metrics.eval());
    expect(err).toBeInstanceOf(AqmAuthenticationError);
    expect(err).toMatchObject({
      status: 401,
      method: 'GET',
      path: '/metrics/eval',
      body: { message: 'Invalid API key' },
    });
    expect(err.message).toContain('Invalid API key');
    expect(err.message).toContain('AQM_API_KEY');
  });

  it('404 → AqmNotFoundError saying the resource is missing or not accessible', async () => {
    const err = await failure(json(404, { success: false, message: 'Application not found' }), () =>
      client.applications.get(APP),
    );
    expect(err).toBeInstanceOf(AqmNotFoundError);
    expect(err).toMatchObject({ status: 404, method: 'GET', path: `/applications/${APP}` });
    expect(err.message).toContain('Application not found');
    expect(err.message).toContain('does not exist or this API key cannot access it');
  });

  it('409 → AqmConflictError', async () => {
    const err = await failure(json(409, { success: false, message: 'Name already used' }), () =>
      client.applications.update(APP, { name: 'taken' }),
    );
    expect(err).toBeInstanceOf(AqmConflictError);
    expect(err).toMatchObject({ status: 409, method: 'PATCH', path: `/applications/${APP}` });
    expect(err.message).toContain('Name already used');
  });

  it('429 → AqmRateLimitError with retryAfterMs', async () => {
    const err = await failure(
      json(429, { success: false, message: 'Slow down' }, { 'retry-after': '7' }),
      () => client.widgets.list(),
    );
    expect(err).toBeInstanceOf(AqmRateLimitError);
    expect((err as AqmRateLimitError).retryAfterMs).toBe(7000);
    expect(err).toMatchObject({ status: 429, method: 'GET', path: '/widgets' });
  });

  it.each([500, 502, 503, 504])('%i → AqmServerError', async (status) => {
    const err = await failure(json(status, { success: false, message: 'Boom' }), () =>
      client.metrics.security(),
    );
    expect(err).toBeInstanceOf(AqmServerError);
    expect(err).toMatchObject({ status, method: 'GET', path: '/metrics/security' });
  });

  it('another status (413) → AqmApiError itself', async () => {
    const err = await failure(json(413, { success: false, message: 'Body too large' }), () =>
      client.applications.create({ name: 'x' }),
    );
    expect(err.constructor).toBe(AqmApiError);
    expect(err).toMatchObject({ status: 413, method: 'POST', path: '/applications' });
    expect(err.message).toBe('413 Payload Too Large on POST /applications: Body too large');
  });

  it('a non-JSON error body still gives the right class, with the status and text', async () => {
    const err = await failure(text(502, '<html>Bad gateway</html>'), () => client.applications.list());
    expect(err).toBeInstanceOf(AqmServerError);
    expect(err.message).toBe('502 Bad Gateway on GET /applications: <html>Bad gateway</html>');
    expect(err.body).toBe('<html>Bad gateway</html>');
    const empty = await failure(text(404, ''), () => client.traces.get(APP, 'abc'));
    expect(empty).toBeInstanceOf(AqmNotFoundError);
    expect(empty.message).toContain('404 Not Found on GET');
    expect(empty.body).toBeUndefined();
  });

  it('the error path excludes the base URL prefix and the query string', async () => {
    const err = await failure(json(400, { success: false, message: 'bad', errors: [] }), () =>
      client.traces.list(APP, { search: 'x' }),
    );
    expect(server.requests[0]!.url).toBe(`/api/applications/${APP}/traces?search=x`);
    expect(err.path).toBe(`/applications/${APP}/traces`);
  });

  it('a 2xx body that is not an envelope is an AqmApiError, not data', async () => {
    const err = await failure(text(200, 'hello'), () => client.widgets.list());
    expect(err.constructor).toBe(AqmApiError);
    expect(err.status).toBe(200);
    expect(err.message).toContain('expected a JSON envelope');
    const paged = await failure(json(200, { success: true, data: [] }), () => client.applications.list());
    expect(paged.message).toContain('expected a paginated envelope');
  });
});

describe('errorFromResponse', () => {
  it.each([
    [400, AqmValidationError],
    [401, AqmAuthenticationError],
    [404, AqmNotFoundError],
    [409, AqmConflictError],
    [429, AqmRateLimitError],
    [500, AqmServerError],
    [599, AqmServerError],
    [418, AqmApiError],
  ])('%i → %o', (status, type) => {
    const err = errorFromResponse(status, { success: false, message: 'm' }, {}, 'GET', '/x');
    expect(err).toBeInstanceOf(type);
    expect(err).toMatchObject({ status, method: 'GET', path: '/x', body: { success: false, message: 'm' } });
    expect(err.message).toContain(`${status} `);
  });

  it('keeps only well-formed entries of errors[]', () => {
    const err = errorFromResponse(
      400,
      { success: false, message: 'm', errors: [{ path: 'a', message: 'b' }, { path: 1 }, 'x'] },
      {},
      'POST',
      '/y',
    ) as AqmValidationError;
    expect(err.errors).toEqual([{ path: 'a', message: 'b' }]);
  });

  it('says when the body carries no message', () => {
    expect(errorFromResponse(500, { success: false }, {}, 'GET', '/z').message).toBe(
      '500 Internal Server Error on GET /z: no message in the response',
    );
    expect(errorFromResponse(429, undefined, { 'retry-after': 'soon' }, 'GET', '/z')).toMatchObject({
      retryAfterMs: undefined,
      message: '429 Too Many Requests on GET /z: empty response body',
    });
  });
});
