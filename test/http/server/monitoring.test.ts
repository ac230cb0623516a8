import { type RunningServer, startServer } from '@aqm/server';
import { type EvalMetric, monitoringConfigSchema, type SecurityCatalog } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, uniqueName } from './helpers.js';

describe('monitoring configuration', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let metrics: EvalMetric[];
  let plugins: SecurityCatalog;
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    call = caller(srv.url, 'k');
    metrics = (await call('GET', '/metrics/eval')).body.data;
    plugins = (await call('GET', '/metrics/security')).body.data;
  });
  afterAll(() => srv.close());

  async function newApp(): Promise<string> {
    return (await call('POST', '/applications', { json: { name: uniqueName('mon') } })).body.data.id;
  }
  const put = (id: string, json: unknown) => call('PUT', `/applications/${id}/monitoring`, { json });

  /** A metric of the catalog with an additional field other than `threshold`, and that field. */
  function metricWithExtraField(): { metric: EvalMetric; field: string } {
    for (const metric of metrics) {
      const field = metric.additionalFields.find((f) => f.name !== 'threshold' && f.type === 'number');
      if (field !== undefined) return { metric, field: field.name };
    }
    throw new Error('the catalog has no metric with a numeric extra field');
  }

  it('starts empty and saves metrics, plugins, purpose and security config', async () => {
    const id = await newApp();
    expect((await call('GET', `/applications/${id}/monitoring`)).body.data).toEqual({
      metrics: [],
      plugins: {},
      securityPurpose: '',
      securityConfig: {},
    });
    const [first, second] = metrics as [EvalMetric, EvalMetric];
    const [category, list] = Object.entries(plugins)[0] as [string, { type: string }[]];
    const body = {
      metrics: [{ type: first.name, threshold: 0.7 }, { type: second.name }],
      plugins: { [category]: list.slice(0, 2).map((p) => p.type) },
      securityConfig: { purpose: 'answers billing questions', userTypes: 'customers' },
    };
    const res = await put(id, body);
    expect(res.status).toBe(200);
    const saved = monitoringConfigSchema.parse(res.body.data);
    expect(saved).toEqual({ ...body, securityPurpose: 'answers billing questions' });
    expect((await call('GET', `/applications/${id}/monitoring`)).body.data).toEqual(saved);
    const detail = (await call('GET', `/applications/${id}`)).body.data;
    expect(detail.monitoring).toEqual({ ...saved, logLocation: expect.any(String) });
  });

  it('accepts a metric extra key listed in its additionalFields', async () => {
    const { metric, field } = metricWithExtraField();
    const res = await put(await newApp(), { metrics: [{ type: metric.name, [field]: 1000 }] });
    expect(res.status).toBe(200);
    expect(res.body.data.metrics).toEqual([{ type: metric.name, [field]: 1000 }]);
  });

  it('refuses a metric type outside the catalog, at its indexed path', async () => {
    const res = await put(await newApp(), {
      metrics: [{ type: (metrics[0] as EvalMetric).name }, { type: 'nope' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'metrics[1].type', message: expect.stringContaining('nope') }]);
  });

  it("refuses an extra key that is not among the metric's additionalFields", async () => {
    const metric = metrics[0] as EvalMetric;
    const res = await put(await newApp(), { metrics: [{ type: metric.name, notAField: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'metrics[0].notAField', message: expect.any(String) }]);
  });

  it('refuses plugin ids outside the catalog or under the wrong category', async () => {
    const [[category, list], [otherCategory]] = Object.entries(plugins) as [
      [string, { type: string }[]],
      [string, unknown],
    ];
    const id = await newApp();
    const unknownId = await put(id, {
      plugins: { [category]: [(list[0] as { type: string }).type, `${category}:nope`] },
    });
    expect(unknownId.status).toBe(400);
    expect(unknownId.body.errors).toEqual([{ path: `plugins.${category}[1]`, message: expect.any(String) }]);
    const wrongCategory = await put(id, {
      plugins: { [otherCategory]: [(list[0] as { type: string }).type] },
    });
    expect(wrongCategory.status).toBe(400);
    expect(wrongCategory.body.errors).toEqual([
      { path: `plugins.${otherCategory}[0]`, message: expect.any(String) },
    ]);
    const unknownCategory = await put(id, { plugins: { nonsense: [] } });
    expect(unknownCategory.body.errors).toEqual([{ path: 'plugins.nonsense', message: expect.any(String) }]);
  });

  it('needs at least one field, and refuses unknown ones', async () => {
    const id = await newApp();
    const empty = await put(id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ path: '$', message: expect.stringContaining('at least one') }]);
    const unknown = await put(id, { logLocation: '/tmp' });
    expect(unknown.body.errors).toEqual([
      { path: 'logLocation', message: 'is not a known field' },
      { path: '$', message: expect.stringContaining('at least one') },
    ]);
  });

  it('merges securityConfig: omitted keys stay, given keys change', async () => {
    const id = await newApp();
    await put(id, { securityConfig: { purpose: 'p1', userTypes: 'staff', competitors: 'acme' } });
    const res = await put(id, { securityConfig: { userTypes: 'customers', forbiddenTopics: 'politics' } });
    expect(res.body.data.securityConfig).toEqual({
      purpose: 'p1',
      userTypes: 'customers',
      competitors: 'acme',
      forbiddenTopics: 'politics',
    });
    expect(res.body.data.securityPurpose).toBe('p1');
  });

  it('securityPurpose wins over securityConfig.purpose, and both always agree', async () => {
    const id = await newApp();
    const both = await put(id, {
      securityPurpose: 'from shorthand',
      securityConfig: { purpose: 'from config' },
    });
    expect(both.body.data.securityPurpose).toBe('from shorthand');
    expect(both.body.data.securityConfig.purpose).toBe('from shorthand');
    const configOnly = await put(id, { securityConfig: { purpose: 'config again' } });
    expect(configOnly.body.data.securityPurpose).toBe('config again');
    const shorthandOnly = await put(id, { securityPurpose: 'shorthand again' });
    expect(shorthandOnly.body.data.securityConfig.purpose).toBe('shorthand again');
    expect((await call('GET', `/applications/${id}/monitoring`)).body.data.securityPurpose).toBe(
      'shorthand again',
    );
  });

  it('arrays and objects given replace the stored ones; omitted fields stay', async () => {
    const id = await newApp();
    const [a, b] = metrics as [EvalMetric, EvalMetric];
    const [category, list] = Object.entries(plugins)[0] as [string, { type: string }[]];
    await put(id, {
      metrics: [{ type: a.name }, { type: b.name }],
      plugins: { [category]: [list[0]?.type] },
    });
    const res = await put(id, { metrics: [{ type: b.name, threshold: 0.2 }] });
    expect(res.body.data.metrics).toEqual([{ type: b.name, threshold: 0.2 }]);
    expect(res.body.data.plugins).toEqual({ [category]: [list[0]?.type] });
    const cleared = await put(id, { plugins: {} });
    expect(cleared.body.data.plugins).toEqual({});
    expect(cleared.body.data.metrics).toEqual([{ type: b.name, threshold: 0.2 }]);
  });
});
