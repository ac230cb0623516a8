import type { UpdateMonitoringBody } from '@aqm/client';
import { monitoringConfigSchema } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService, uniqueName } from './helpers.js';

// client.monitoring against the local service: what is saved is what is read back.
describe('client.monitoring', () => {
  let service: Service;
  let appId: string;
  beforeAll(async () => {
    service = await startService();
    appId = (await service.client.applications.create({ name: uniqueName('monitored') })).id;
  });
  afterAll(() => service.stop());

  it('update saves metrics, plugins and security settings; get reads them back', async () => {
    const { client } = service;
    // Real catalog entries: the metric with a budget option and the first plugin of each of two categories.
    const latency = (await client.metrics.eval()).find((m) => m.name === 'latency');
    expect(latency?.additionalFields.map((f) => f.name)).toContain('maxLatencyMs');
    const security = await client.metrics.security();
    const [firstCategory, secondCategory] = Object.keys(security);
    const plugins = {
      [firstCategory!]: [security[firstCategory!]![0]!.type],
      [secondCategory!]: security[secondCategory!]!.map((p) => p.type),
    };
    const body: UpdateMonitoringBody = {
      metrics: [
        { type: 'latency', threshold: 0.5, maxLatencyMs: 2000 },
        { type: 'success_rate', threshold: 1 },
      ],
      plugins,
      securityConfig: { purpose: 'overridden below', userTypes: 'shop customers', competitors: 'Acme' },
      securityPurpose: 'Answers questions about orders and refunds',
    };
    const saved = monitoringConfigSchema.parse(await client.monitoring.update(appId, body));
    expect(saved.metrics).toEqual(body.metrics);
    expect(saved.plugins).toEqual(plugins);
    // securityPurpose is applied after securityConfig, so it wins, and the two agree.
    expect(saved.securityPurpose).toBe(body.securityPurpose);
    expect(saved.securityConfig).toMatchObject({
      ...body.securityConfig,
      purpose: body.securityPurpose,
    });
    expect(monitoringConfigSchema.parse(await client.monitoring.get(appId))).toEqual(saved);
  });

  it('update leaves omitted fields and omitted securityConfig keys unchanged', async () => {
    const { client } = service;
    const before = await client.monitoring.get(appId);
    const saved = monitoringConfigSchema.parse(
      await client.monitoring.update(appId, { securityConfig: { competitors: 'Globex' } }),
    );
    expect(saved).toEqual({
      ...before,
      securityConfig: { ...before.securityConfig, competitors: 'Globex' },
    });
    expect(await client.monitoring.get(appId)).toEqual(saved);
  });
});
