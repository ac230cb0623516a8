import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AqmClient, CLIENT_VERSION } from '../src/index.js';
import { json, ok, startTestServer, type TestServer } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const start = '2026-01-01T00:00:00.000Z';
const end = '2026-01-02T00:00:00.000Z';
const pagination = { page: 1, limit: 20, total: 1, totalPages: 1 };
const trace = {
  traceId: TRACE,
  prompt: 'hi',
  response: 'hello',
  startTime: start,
  endTime: end,
  status: 'success' as const,
};

interface Case {
  name: string;
  call: (c: AqmClient) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** What the service answers: `data` of the envelope, or a whole paged envelope. */
  data?: unknown;
  paged?: boolean;
}

const cases: Case[] = [
  {
    name: 'applications.list',
    call: (c) => c.applications.list({ page: 2, limit: 5, search: 'bot' }),
    method: 'GET',
    path: '/applications',
    query: { page: '2', limit: '5', search: 'bot' },
    paged: true,
  },
  {
    name: 'applications.create',
    call: (c) => c.applications.create({ name: 'bot', description: 'd' }),
    method: 'POST',
    path: '/applications',
    body: { name: 'bot', description: 'd' },
  },
  {
    name: 'applications.get',
    call: (c) => c.applications.get(APP),
    method: 'GET',
    path: `/applications/${APP}`,
  },
  {
    name: 'applications.update',
    call: (c) => c.applications.update(APP, { name: 'renamed' }),
    method: 'PATCH',
    path: `/applications/${APP}`,
    body: { name: 'renamed' },
  },
  {
    name: 'monitoring.get',
    call: (c) => c.monitoring.get(APP),
    method: 'GET',
    path: `/applications/${APP}/monitoring`,
  },
  {
    name: 'monitoring.update',
    call: (c) => c.monitoring.update(APP, { metrics: [{ type: 'faithfulness', threshold: 0.7 }] }),
    method: 'PUT',
    path: `/applications/${APP}/monitoring`,
    body: { metrics: [{ type: 'faithfulness', threshold: 0.7 }] },
  },
  {
    name: 'guardrails.get',
    call: (c) => c.guardrails.get(APP),
    method: 'GET',
    path: `/applications/${APP}/guardrails`,
  },
  {
    name: 'guardrails.update',
    call: (c) => c.guardrails.update(APP, { enable_guard_rails: true }),
    method: 'PUT',
    path: `/applications/${APP}/guardrails`,
    body: { enable_guard_rails: true },
  },
  {
    name: 'guardrails.validators',
    call: (c) => c.guardrails.validators(),
    method: 'GET',
    path: '/guardrails/validators',
  },
  {
    name: 'guardrails.evaluations.list',
    call: (c) =>
      c.guardrails.evaluations.list(APP, {
        start,
        end,
        page: 3,
        limit: 10,
        passStatus: 'error',
        stage: 'input',
      }),
    method: 'GET',
    path: `/applications/${APP}/guardrails/evaluations`,
    query: { start, end, page: '3', limit: '10', passStatus: 'error', stage: 'input' },
    data: { results: [{ id: 'g1' }], count: 1, page: 3, limit: 10 },
  },
  {
    name: 'guardrails.evaluations.get',
    call: (c) => c.guardrails.evaluations.get(APP, 'ev/1'),
    method: 'GET',
    path: `/applications/${APP}/guardrails/evaluations/ev%2F1`,
  },
  {
    name: 'traces.list',
    call: (c) => c.traces.list(APP, { status: 'error', search: 'refund' }),
    method: 'GET',
    path: `/applications/${APP}/traces`,
    query: { status: 'error', search: 'refund' },
    paged: true,
  },
  {
    name: 'traces.get',
    call: (c) => c.traces.get(APP, TRACE),
    method: 'GET',
    path: `/applications/${APP}/traces/${TRACE}`,
  },
  {
    name: 'evaluations.submit',
    call: (c) => c.evaluations.submit(APP, { traces: [trace] }),
    method: 'POST',
    path: `/applications/${APP}/evaluations`,
    body: { traces: [trace] },
    data: { accepted: 1, traceIds: [TRACE] },
  },
  {
    name: 'evaluations.list',
    call: (c) => c.evaluations.list(APP, { traceId: TRACE, metric: 'faithfulness' }),
    method: 'GET',
    path: `/applications/${APP}/evaluations`,
    query: { traceId: TRACE, metric: 'faithfulness' },
    paged: true,
  },
  {
    name: 'widgets.list',
    call: (c) => c.widgets.list(),
    method: 'GET',
    path: '/widgets',
    data: [{ id: 'latency' }],
  },
  {
    name: 'widgets.data',
    call: (c) => c.widgets.data(APP, { types: ['latency'], start, end }),
    method: 'POST',
    path: `/applications/${APP}/widget-data`,
    body: { types: ['latency'], start, end },
  },
  { name: 'metrics.eval', call: (c) => c.metrics.eval(), method: 'GET', path: '/metrics/eval' },
  { name: 'metrics.security', call: (c) => c.metrics.security(), method: 'GET', path: '/metrics/security' },
];

describe('every resource method', () => {
  let server: TestServer;
  let client: AqmClient;
  beforeAll(async () => {
    server = await startTestServer();
    client = new AqmClient({ apiKey: 'test-key', baseUrl: server.baseUrl });
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('covers all 19 endpoints', () => {
    expect(new Set(cases.map((c) => c.name)).size).toBe(19);
  });

  for (const c of cases) {
    it(`${c.name} sends ${c.method} ${c.path} and returns the data as received`, async () => {
      // A field the wire schemas do not know must reach the caller untouched.
      const data = c.data ?? { id: c.name, fieldFromTheFuture: { nested: [1, 2] } };
      const items = [{ id: c.name, fieldFromTheFuture: true }];
      server.reply(c.paged ? json(200, { success: true, data: items, pagination }) : ok(data));

      const result = await c.call(client);

      expect(result).toEqual(c.paged ? { data: items, pagination } : data);
      expect(server.requests).toHaveLength(1);
      const req = server.requests[0]!;
      expect(req.method).toBe(c.method);
      expect(req.path).toBe(c.path);
      expect(Object.fromEntries(req.query)).toEqual(c.query ?? {});
      if (c.body === undefined) {
        expect(req.body).toBe('');
        expect(req.headers['content-type']).toBeUndefined();
      } else {
        expect(JSON.parse(req.body)).toEqual(c.body);
        expect(req.headers['content-type']).toBe('application/json');
      }
      expect(req.headers['x-api-key']).toBe('test-key');
      expect(req.headers.accept).toBe('application/json');
      expect(req.headers['user-agent']).toMatch(/^aqm-js\/\d+\.\d+\.\d+ node\/\d+\.\d+\.\d+$/);
    });
  }
});

describe('headers', () => {
  it('sends extra headers and puts userAgent in front of the own user-agent', async () => {
    const server = await startTestServer();
    const client = new AqmClient({
      apiKey: 'k',
      baseUrl: server.baseUrl,
      headers: { 'X-Request-Source': 'tests' },
      userAgent: 'my-app/1.2',
    });
    try {
      server.reply(ok([]));
      await client.metrics.eval();
      const req = server.requests[0]!;
      expect(req.headers['x-request-source']).toBe('tests');
      expect(req.headers['user-agent']).toBe(
        `my-app/1.2 aqm-js/${CLIENT_VERSION} node/${process.versions.node}`,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('tolerates a trailing slash in baseUrl', async () => {
    const server = await startTestServer();
    const client = new AqmClient({ apiKey: 'k', baseUrl: `${server.baseUrl}/` });
    try {
      server.reply(ok([]));
      await client.widgets.list();
      expect(server.requests[0]!.url).toBe('/api/widgets');
      expect(client.baseUrl).toBe(server.baseUrl);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
