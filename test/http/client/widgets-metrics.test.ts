import { evalMetricSchema, securityCatalogSchema, widgetDataItemSchema, widgetSchema } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTrace, type Service, startService, uniqueName } from './helpers.js';

// client.metrics and client.widgets against the local service: the catalogs, and widget data
// computed from traces submitted here.
describe('client.metrics and client.widgets', () => {
  let service: Service;
  let appId: string;
  beforeAll(async () => {
    service = await startService();
    appId = (await service.client.applications.create({ name: uniqueName('widgets') })).id;
  });
  afterAll(() => service.stop());

  it('metrics.eval lists the eval metric catalog; every name is accepted as a monitoring metric type', async () => {
    const catalog = evalMetricSchema.array().parse(await service.client.metrics.eval());
    expect(catalog.length).toBeGreaterThan(0);
    const names = catalog.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    const saved = await service.client.monitoring.update(appId, { metrics: names.map((type) => ({ type })) });
    expect(saved.metrics).toEqual(names.map((type) => ({ type })));
  });

  it('metrics.security lists plugins by category; the whole catalog is accepted as monitoring plugins', async () => {
    const catalog = securityCatalogSchema.parse(await service.client.metrics.security());
    const categories = Object.keys(catalog);
    expect(categories.length).toBeGreaterThan(0);
    for (const category of categories) {
      for (const plugin of catalog[category]!) expect(plugin.type.startsWith(`${category}:`)).toBe(true);
    }
    const plugins = Object.fromEntries(categories.map((c) => [c, catalog[c]!.map((p) => p.type)]));
    expect((await service.client.monitoring.update(appId, { plugins })).plugins).toEqual(plugins);
  });

  it('widgets.list lists the widget types', async () => {
    const widgets = widgetSchema.array().parse(await service.client.widgets.list());
    const ids = widgets.map((w) => w.id);
    expect(ids).toEqual(expect.arrayContaining(['trace-volume', 'latency', 'error-rate', 'token-usage']));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('widgets.data answers one item per requested type, in the order of types, from the submitted traces', async () => {
    const { client } = service;
    const start = Date.now() - 30 * 60_000;
    const traces = [
      makeTrace(start, 100, { usage: { totalTokens: 40 } }),
      makeTrace(start + 60_000, 300, { status: 'error', usage: { inputTokens: 5, outputTokens: 7 } }),
      makeTrace(start + 120_000, 500, { usage: { totalTokens: 50 } }),
    ];
    await client.evaluations.submit(appId, { traces });
    // The catalog order reversed, so answering in catalog order would fail.
    const types = (await client.widgets.list()).map((w) => w.id).reverse();
    const items = widgetDataItemSchema
      .array()
      .parse(await client.widgets.data(appId, { types, start: new Date(start - 60_000), end: new Date() }));
    expect(items.map((item) => item.type)).toEqual(types);
    const byType = Object.fromEntries(items.map((item) => [item.type, item]));
    expect(byType['trace-volume']?.total).toBe(traces.length);
    expect(byType['error-rate']?.total).toBeCloseTo(1 / 3, 4);
    expect(byType.latency?.total).toBeCloseTo((100 + 300 + 500) / 3, 4);
    expect(byType['token-usage']?.total).toBe(40 + 5 + 7 + 50);
    // A range before the traces holds nothing.
    const empty = await client.widgets.data(appId, {
      types: ['trace-volume'],
      start: new Date(start - 7_200_000),
      end: new Date(start - 3_600_000),
    });
    expect(empty).toEqual([{ type: 'trace-volume', points: [], total: 0 }]);
  });
});
