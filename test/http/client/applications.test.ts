import {
  applicationDetailSchema,
  applicationSchema,
  paginationSchema,
  updatedApplicationSchema,
  uuidSchema,
} from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, type Service, startService, uniqueName } from './helpers.js';

// client.applications against the local service: every method once with real data, each
// result checked against the wire schema and against what was sent.
describe('client.applications', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  /** Creates applications one after the other, so their newest-first order is known. */
  async function createInOrder(prefix: string, count: number) {
    const created = [];
    for (let i = 0; i < count; i++) {
      created.push(await service.client.applications.create({ name: `${prefix}-${i}` }));
    }
    return created;
  }

  it('create registers an application and returns it with a UUID and timestamps', async () => {
    const name = uniqueName('create');
    const description = 'Helpdesk assistant for the EU shop';
    const before = Date.now();
    const app = applicationSchema.parse(await service.client.applications.create({ name, description }));
    const after = Date.now();
    expect(uuidSchema.safeParse(app.id).success).toBe(true);
    expect(app.name).toBe(name);
    expect(app.description).toBe(description);
    for (const stamp of [app.createdAt, app.updatedAt]) {
      expect(new Date(stamp).toISOString()).toBe(stamp);
      expect(Date.parse(stamp)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(stamp)).toBeLessThanOrEqual(after);
    }
  });

  it('get returns the application with its monitoring (and logLocation) and guardrails', async () => {
    const { client } = service;
    const created = await client.applications.create({ name: uniqueName('get'), description: 'read me' });
    const detail = applicationDetailSchema.parse(await client.applications.get(created.id));
    expect(detail).toMatchObject(created);
    // The detail's configuration is the one the dedicated endpoints serve.
    const { logLocation, ...monitoring } = detail.monitoring;
    expect(monitoring).toEqual(await client.monitoring.get(created.id));
    expect(logLocation).toContain(created.id);
    expect(detail.guardrails).toEqual(await client.guardrails.get(created.id));
  });

  it('update renames, re-describes and leaves omitted fields unchanged', async () => {
    const { client } = service;
    const created = await client.applications.create({ name: uniqueName('old'), description: 'first' });
    const newName = uniqueName('renamed');
    const renamed = updatedApplicationSchema.parse(
      await client.applications.update(created.id, { name: newName }),
    );
    expect(renamed).toMatchObject({ id: created.id, name: newName, description: 'first' });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const redescribed = await client.applications.update(created.id, { description: 'second' });
    expect(redescribed).toMatchObject({ id: created.id, name: newName, description: 'second' });
    expect(await client.applications.get(created.id)).toMatchObject({
      id: created.id,
      name: newName,
      description: 'second',
      createdAt: created.createdAt,
      updatedAt: redescribed.updatedAt,
    });
  });

  it('list returns one page, newest first, with pagination; search matches part of the name in any case', async () => {
    const prefix = uniqueName('listed');
    const created = await createInOrder(prefix, 3);
    const page = await service.client.applications.list({ search: prefix.toUpperCase(), limit: 2 });
    const items = page.data.map((item) => applicationSchema.parse(item));
    expect(paginationSchema.parse(page.pagination)).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(items).toEqual([created[2], created[1]]);
    const second = await service.client.applications.list({ search: prefix, limit: 2, page: 2 });
    expect(second.data).toEqual([created[0]]);
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it('iterate walks every page (3 here) and yields each application once, newest first', async () => {
    const prefix = uniqueName('walked');
    const created = await createInOrder(prefix, 7);
    const before = service.srv.requestCount('applications.list');
    const walked = await collect(service.client.applications.iterate({ search: prefix, limit: 3 }));
    expect(walked.map((item) => applicationSchema.parse(item))).toEqual(created.reverse());
    // Pages of 3, 3 and 1: the short page ends the walk without a fourth request.
    expect(service.srv.requestCount('applications.list') - before).toBe(3);
  });

  it('iterate stops fetching when the loop breaks early', async () => {
    const prefix = uniqueName('early');
    const created = await createInOrder(prefix, 5);
    const before = service.srv.requestCount('applications.list');
    const seen: string[] = [];
    for await (const app of service.client.applications.iterate({ search: prefix, limit: 2 })) {
      seen.push(app.id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(
      created
        .reverse()
        .slice(0, 3)
        .map((app) => app.id),
    );
    expect(service.srv.requestCount('applications.list') - before).toBe(2);
  });
});
