import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AqmClient } from '../src/index.js';
import { autoPage } from '../src/paging.js';
import { type Handler, json, startTestServer, type TestServer } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';
const start = '2026-01-01T00:00:00.000Z';
const end = '2026-01-31T00:00:00.000Z';

/** Serves `total` items named item-1..item-N, paged like the service, in either envelope style. */
function pagedList(total: number, style: 'pagination' | 'guardrail'): Handler {
  const items = Array.from({ length: total }, (_, i) => ({ id: `item-${i + 1}` }));
  return (req, res) => {
    const page = Number(req.query.get('page') ?? 1);
    const limit = Number(req.query.get('limit') ?? 20);
    const data = items.slice((page - 1) * limit, page * limit);
    const body =
      style === 'pagination'
        ? { success: true, data, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } }
        : { success: true, data: { results: data, count: total, page, limit } };
    json(200, body)(req, res);
  };
}

/** The served items carry `id`; the typed views may call it otherwise. */
const idOf = (item: object) => (item as { id: string }).id;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

let server: TestServer;
let client: AqmClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

type Style = 'pagination' | 'guardrail';
const iterators: Array<
  [string, Style, string, (limit: number) => AsyncIterable<{ id: string } | { traceId: string }>]
> = [
  [
    'applications.iterate',
    'pagination',
    '/applications',
    (limit) => client.applications.iterate({ search: 'a', limit }),
  ],
  [
    'traces.iterate',
    'pagination',
    `/applications/${APP}/traces`,
    (limit) => client.traces.iterate(APP, { limit }),
  ],
  [
    'evaluations.iterate',
    'pagination',
    `/applications/${APP}/evaluations`,
    (limit) => client.evaluations.iterate(APP, { limit }),
  ],
  [
    'guardrails.evaluations.iterate',
    'guardrail',
    `/applications/${APP}/guardrails/evaluations`,
    (limit) => client.guardrails.evaluations.iterate(APP, { start, end, limit }),
  ],
];

describe.each(iterators)('%s', (_name, style, path, iterate) => {
  it('pages through 3 pages, stopping at a short page', async () => {
    server.reply(pagedList(7, style));
    const items = await collect(iterate(3));
    expect(items.map(idOf)).toEqual(['item-1', 'item-2', 'item-3', 'item-4', 'item-5', 'item-6', 'item-7']);
    expect(server.requests.map((r) => [r.path, r.query.get('page'), r.query.get('limit')])).toEqual([
      [path, '1', '3'],
      [path, '2', '3'],
      [path, '3', '3'],
    ]);
  });

  it('stops when the total is reached, without asking for an empty page', async () => {
    server.reply(pagedList(6, style));
    const items = await collect(iterate(3));
    expect(items).toHaveLength(6);
    expect(server.requests).toHaveLength(2);
  });

  it('fetches nothing more when the caller stops early', async () => {
    server.reply(pagedList(50, style));
    for await (const item of iterate(5)) {
      expect(idOf(item)).toBe('item-1');
      break;
    }
    expect(server.requests).toHaveLength(1);
  });
});

describe('iterate details', () => {
  it('keeps the query filters on every page and starts at the given page', async () => {
    server.reply(pagedList(9, 'pagination'));
    const ids = (await collect(client.applications.iterate({ search: 'bot', page: 2, limit: 4 }))).map(
      (a) => a.id,
    );
    expect(ids).toEqual(['item-5', 'item-6', 'item-7', 'item-8', 'item-9']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/applications?search=bot&page=2&limit=4',
      '/api/applications?search=bot&page=3&limit=4',
    ]);
  });

  it('surfaces input errors on first use', async () => {
    await expect(collect(client.traces.iterate(APP, { limit: 0 }))).rejects.toThrow(
      'limit must be an integer from 1 to 100',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('autoPage', () => {
  it('stops on an empty page even if the total says otherwise', async () => {
    const pages: number[] = [];
    const items = await collect(
      autoPage(1, async (page) => {
        pages.push(page);
        return { items: page === 1 ? ['a', 'b'] : [], limit: 2, total: 100 };
      }),
    );
    expect(items).toEqual(['a', 'b']);
    expect(pages).toEqual([1, 2]);
  });
});
