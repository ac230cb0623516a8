import { type RunningServer, startServer } from '@aqm/server';
import { evalMetricSchema, securityCatalogSchema, validatorCatalogEntrySchema } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './helpers.js';

describe('catalogs', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    call = caller(srv.url, 'k');
  });
  afterAll(() => srv.close());

  it('GET /metrics/eval: at least 6 metrics with unique names, each with additionalFields', async () => {
    const res = await call('GET', '/metrics/eval');
    expect(res.status).toBe(200);
    const metrics = evalMetricSchema.array().parse(res.body.data);
    expect(metrics.length).toBeGreaterThanOrEqual(6);
    expect(new Set(metrics.map((m) => m.name)).size).toBe(metrics.length);
    for (const m of metrics) expect(m.additionalFields.length).toBeGreaterThan(0);
  });

  it('GET /metrics/security: harmful, bias and pii with at least 3 plugins each, ids prefixed by category', async () => {
    const res = await call('GET', '/metrics/security');
    const catalog = securityCatalogSchema.parse(res.body.data);
    for (const category of ['harmful', 'bias', 'pii']) {
      const plugins = catalog[category] ?? [];
      expect(plugins.length).toBeGreaterThanOrEqual(3);
      for (const p of plugins) expect(p.type.startsWith(`${category}:`)).toBe(true);
    }
  });

  it('GET /guardrails/validators: entries of the contract shape', async () => {
    const res = await call('GET', '/guardrails/validators');
    const validators = validatorCatalogEntrySchema.array().parse(res.body.data);
    expect(validators.length).toBeGreaterThanOrEqual(5);
  });

  it('catalogs need a key too', async () => {
    for (const path of ['/metrics/eval', '/metrics/security', '/guardrails/validators', '/widgets']) {
      const res = await call('GET', path, { key: null });
      expect([path, res.status]).toEqual([path, 401]);
    }
  });
});
