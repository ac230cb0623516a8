import { randomUUID } from 'node:crypto';
import { type RunningServer, startServer } from '@aqm/server';
import { applicationDetailSchema, applicationSchema } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, newTraceId, uniqueName } from './helpers.js';

describe('applications', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let other: ReturnType<typeof caller>;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'key-a', projectId: 'project-a' },
        { key: 'key-a2', projectId: 'project-a' },
        { key: 'key-b', projectId: 'project-b' },
      ],
    });
    call = caller(srv.url, 'key-a');
    other = caller(srv.url, 'key-b');
  });
  afterAll(() => srv.close());

  async function create(name: string, description?: string) {
    const res = await call('POST', '/applications', {
      json: description === undefined ? { name } : { name, description },
    });
    expect(res.status).toBe(200);
    return applicationSchema.parse(res.body.data);
  }

  it('creates an application with a UUID, UTC timestamps and an empty description by default', async () => {
    const before = new Date().toISOString();
    const app = await create(uniqueName('create'));
    expect(app.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(app.description).toBe('');
    expect(app.createdAt >= before && app.createdAt.endsWith('Z')).toBe(true);
    expect(app.updatedAt).toBe(app.createdAt);
  });

  it('reads one application with monitoring (with logLocation) and guardrails', async () => {
    const app = await create(uniqueName('detail'), 'a support bot');
    const res = await call('GET', `/applications/${app.id}`);
    expect(res.status).toBe(200);
    const detail = applicationDetailSchema.parse(res.body.data);
    expect(detail).toMatchObject({ ...app, description: 'a support bot' });
    expect(detail.monitoring).toEqual({
      metrics: [],
      plugins: {},
      securityPurpose: '',
      securityConfig: {},
      logLocation: expect.stringContaining(app.id),
    });
    expect(detail.guardrails).toEqual({
      enable_guard_rails: false,
      input_validators: [],
      output_validators: [],
    });
  });

  it('refuses a name already used in the project (409), but not in another project', async () => {
    const name = uniqueName('taken');
    await create(name);
    const again = await call('POST', '/applications', { json: { name } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, message: expect.stringContaining(name) });
    const sameProjectOtherKey = await call('POST', '/applications', { json: { name }, key: 'key-a2' });
    expect(sameProjectOtherKey.status).toBe(409);
    const otherProject = await other('POST', '/applications', { json: { name } });
    expect(otherProject.status).toBe(200);
  });

  it('validates the create body, naming each field', async () => {
    const res = await call('POST', '/applications', { json: { name: '', description: 5, extra: true } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: expect.any(String) },
        { path: 'description', message: 'must be a string' },
        { path: 'extra', message: 'is not a known field' },
      ]),
    );
  });

  describe('PATCH', () => {
    it('changes only the fields given and answers id, name, description, updatedAt', async () => {
      const app = await create(uniqueName('patch'), 'before');
      const renamed = uniqueName('patched');
      const res = await call('PATCH', `/applications/${app.id}`, { json: { name: renamed } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(['description', 'id', 'name', 'updatedAt']);
      expect(res.body.data).toMatchObject({ id: app.id, name: renamed, description: 'before' });
      expect(res.body.data.updatedAt >= app.updatedAt).toBe(true);
      const res2 = await call('PATCH', `/applications/${app.id}`, { json: { description: 'after' } });
      expect(res2.body.data).toMatchObject({ name: renamed, description: 'after' });
      const read = await call('GET', `/applications/${app.id}`);
      expect(read.body.data).toMatchObject({ name: renamed, description: 'after', createdAt: app.createdAt });
    });

    it('with neither name nor description answers 400', async () => {
      const app = await create(uniqueName('patch-empty'));
      const res = await call('PATCH', `/applications/${app.id}`, { json: {} });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: '$', message: expect.stringContaining('at least one') }]);
    });

    it('to a name taken by another application of the project answers 409; to its own name, 200', async () => {
      const first = await create(uniqueName('first'));
      const second = await create(uniqueName('second'));
      const res = await call('PATCH', `/applications/${second.id}`, { json: { name: first.name } });
      expect(res.status).toBe(409);
      expect(res.body.success).toBe(false);
      const same = await call('PATCH', `/applications/${first.id}`, { json: { name: first.name } });
      expect(same.status).toBe(200);
    });
  });

  describe('another project', () => {
    it('cannot see or touch an application: every route answers 404 exactly like a missing id', async () => {
      const app = await create(uniqueName('private'));
      const missing = randomUUID();
      const traceId = newTraceId();
      const start = '2026-01-01T00:00:00Z';
      const requests: Array<[string, string, unknown?]> = [
        ['GET', ''],
        ['PATCH', '', { name: uniqueName('steal') }],
        ['GET', '/monitoring'],
        ['PUT', '/monitoring', { securityPurpose: 'x' }],
        ['GET', '/guardrails'],
        ['PUT', '/guardrails', { enable_guard_rails: true }],
        ['GET', `/guardrails/evaluations?start=${start}&end=${start}`],
        ['GET', `/guardrails/evaluations/${randomUUID()}`],
        ['GET', '/traces'],
        ['GET', `/traces/${traceId}`],
        ['GET', '/evaluations'],
        ['POST', '/evaluations', { traces: [makeTrace(start, 10)] }],
        ['POST', '/widget-data', { types: ['trace-volume'], start, end: start }],
      ];
      for (const [method, suffix, json] of requests) {
        const theirs = await other(method, `/applications/${app.id}${suffix}`, { json });
        const nowhere = await other(method, `/applications/${missing}${suffix}`, { json });
        expect([method, suffix, theirs.status]).toEqual([method, suffix, 404]);
        expect(theirs.body).toEqual({ success: false, message: expect.any(String) });
        expect(nowhere.status).toBe(404);
        expect(theirs.body.message.replace(app.id, '<id>')).toBe(
          nowhere.body.message.replace(missing, '<id>'),
        );
      }
      const listed = await other('GET', `/applications?search=${encodeURIComponent(app.name)}`);
      expect(listed.body.data).toEqual([]);
    });

    it('and a malformed id answers 400 naming applicationId', async () => {
      const res = await call('GET', '/applications/12345');
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'applicationId', message: 'must be a UUID' }]);
    });
  });

  describe('list', () => {
    let names: string[];
    let listCall: ReturnType<typeof caller>;
    beforeAll(async () => {
      srv.addApiKey({ key: 'key-list', projectId: 'project-list' });
      listCall = caller(srv.url, 'key-list');
      names = ['Support Bot', 'sales-assistant', 'SUPPORT-triage', 'Billing', 'internal-support'];
      for (const name of names) {
        expect((await listCall('POST', '/applications', { json: { name } })).status).toBe(200);
      }
    });

    it('pages newest first with default page 1 and limit 20', async () => {
      const res = await listCall('GET', '/applications');
      expect(res.status).toBe(200);
      expect(res.body.data.map((a: { name: string }) => a.name)).toEqual([...names].reverse());
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: names.length, totalPages: 1 });
      const page2 = await listCall('GET', '/applications?page=2&limit=2');
      expect(page2.body.data.map((a: { name: string }) => a.name)).toEqual([names[2], names[1]]);
      expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total: names.length, totalPages: 3 });
      for (const app of res.body.data)
        expect(Object.keys(app).sort()).toEqual(Object.keys(applicationSchema.shape).sort());
    });

    it('searches names case-insensitively, partially', async () => {
      const res = await listCall('GET', '/applications?search=SuPpOrT');
      const expected = names.filter((n) => n.toLowerCase().includes('support')).reverse();
      expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(expected);
      expect(res.body.pagination.total).toBe(expected.length);
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
    ])('%s answers 400 naming %s', async (query, param) => {
      const res = await listCall('GET', `/applications?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.errors).toEqual([{ path: param, message: expect.any(String) }]);
    });

    it('accepts limit=100', async () => {
      const res = await listCall('GET', '/applications?limit=100');
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(100);
    });

    it.each([
      ['page=1&page=2', 'page', 2],
      ['limit=5&limit=5', 'limit', 2],
      ['search=a&search=b&search=c', 'search', 3],
    ])('%s answers 400 naming the repeated %s, not its values', async (query, param, count) => {
      const res = await listCall('GET', `/applications?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: param, message: `must be given once (got ${count} values)` }]);
    });

    it('ignores a repeated parameter it does not know, as any unknown one', async () => {
      const res = await listCall('GET', '/applications?foo=1&foo=2');
      expect(res.status).toBe(200);
    });
  });
});
