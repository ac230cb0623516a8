import { routes } from '@aqm/wire';
import { afterEach, describe, expect, it } from 'vitest';
import { createService, type Service } from '../src/app.js';
import { toFastifyPath } from '../src/routes/register.js';

const headers = { 'x-api-key': 'k' };

describe('the app', () => {
  let service: Service;
  afterEach(async () => {
    await service.app.close();
  });

  it('registers every route of the wire table under the prefix', async () => {
    service = createService({ apiKeys: [{ key: 'k', projectId: 'p' }], prefix: '/x' });
    await service.app.ready();
    for (const def of Object.values(routes)) {
      expect(service.app.hasRoute({ method: def.method, url: `/x${toFastifyPath(def.path)}` })).toBe(true);
    }
  });

  it('answers an unexpected failure with a 500 envelope that leaks nothing', async () => {
    service = createService({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    service.store.close();
    const res = await service.app.inject({ method: 'GET', url: '/api/applications', headers });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: 'Internal server error' });
  });

  it('answers a non-JSON body as a 400 at $ and a foreign content type (text/plain too) as 415', async () => {
    service = createService({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    const notJson = await service.app.inject({
      method: 'POST',
      url: '/api/applications',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: 'name=x',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors).toEqual([
      { path: '$', message: expect.stringContaining('not valid JSON') },
    ]);
    for (const [type, payload] of [
      ['text/plain', '{"name":"x"}'],
      ['application/xml', '<name>x</name>'],
    ]) {
      const res = await service.app.inject({
        method: 'POST',
        url: '/api/applications',
        headers: { ...headers, 'content-type': type },
        payload,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ success: false, message: expect.stringContaining(`"${type}"`) });
    }
  });

  it('closes the store when the app closes', async () => {
    service = createService({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    await service.app.close();
    expect(service.store.db.isOpen).toBe(false);
  });
});
