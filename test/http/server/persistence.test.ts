import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE, startServer } from '@aqm/server';
import { afterAll, describe, expect, it } from 'vitest';
import { caller, makeTrace } from './helpers.js';

describe('dataDir persistence', () => {
  const root = mkdtempSync(join(tmpdir(), 'aqm-server-http-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps applications, configuration, traces, results and guardrail records across a restart', async () => {
    const dataDir = join(root, 'data');
    const apiKeys = [{ key: 'k', projectId: 'p' }];
    const first = await startServer({ apiKeys, dataDir });
    expect(first.storage).toBe(join(dataDir, DATABASE_FILE));
    const call1 = caller(first.url, 'k');
    const app = (await call1('POST', '/applications', { json: { name: 'persistent', description: 'kept' } }))
      .body.data;
    const metric = (await call1('GET', '/metrics/eval')).body.data[0].name;
    await call1('PUT', `/applications/${app.id}/monitoring`, {
      json: { metrics: [{ type: metric }], securityPurpose: 'demo' },
    });
    await call1('PUT', `/applications/${app.id}/guardrails`, {
      json: { enable_guard_rails: true, output_validators: [{ type: 'pii', on_fail: 'mask' }] },
    });
    const trace = makeTrace(new Date(), 42, { response: 'write to x@example.com' });
    await call1('POST', `/applications/${app.id}/evaluations`, { json: { traces: [trace] } });
    const range = `start=${new Date(Date.now() - 60_000).toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}`;
    const before = {
      detail: (await call1('GET', `/applications/${app.id}`)).body.data,
      trace: (await call1('GET', `/applications/${app.id}/traces/${trace.traceId}`)).body.data,
      records: (await call1('GET', `/applications/${app.id}/guardrails/evaluations?${range}`)).body.data,
    };
    expect(before.trace.evaluationResults).toHaveLength(1);
    expect(before.records.count).toBe(1);
    await first.close();
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(true);

    const second = await startServer({ apiKeys, dataDir });
    try {
      const call2 = caller(second.url, 'k');
      expect((await call2('GET', `/applications/${app.id}`)).body.data).toEqual(before.detail);
      expect((await call2('GET', `/applications/${app.id}/traces/${trace.traceId}`)).body.data).toEqual(
        before.trace,
      );
      expect(
        (await call2('GET', `/applications/${app.id}/guardrails/evaluations?${range}`)).body.data,
      ).toEqual(before.records);
      expect((await call2('POST', '/applications', { json: { name: 'persistent' } })).status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('keeps nothing without dataDir', async () => {
    const apiKeys = [{ key: 'k', projectId: 'p' }];
    const first = await startServer({ apiKeys });
    expect(first.storage).toBe(':memory:');
    await caller(first.url, 'k')('POST', '/applications', { json: { name: 'gone' } });
    await first.close();
    const second = await startServer({ apiKeys });
    try {
      expect((await caller(second.url, 'k')('GET', '/applications')).body.data).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
