import { describe, expect, it } from 'vitest';
import { applicationRoutesMissing } from '../src/application-routes.js';
import type { ApplicationsFinder } from '../src/find-or-create-application.js';

function finder(iterate: ApplicationsFinder['applications']['iterate']): ApplicationsFinder {
  return { applications: { iterate, create: () => Promise.reject(new Error('not used')) } };
}

function failing(status: number | undefined): ApplicationsFinder['applications']['iterate'] {
  return () => ({
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(Object.assign(new Error('refused'), status === undefined ? {} : { status })),
    }),
  });
}

describe('applicationRoutesMissing', () => {
  it('is true only when the application list itself answers 404', async () => {
    expect(await applicationRoutesMissing(finder(failing(404)))).toBe(true);
    expect(await applicationRoutesMissing(finder(failing(401)))).toBe(false);
    expect(await applicationRoutesMissing(finder(failing(undefined)))).toBe(false);
    const none: ApplicationsFinder['applications']['iterate'] = async function* () {};
    expect(await applicationRoutesMissing(finder(none))).toBe(false);
  });

  it('reads one item at most', async () => {
    let read = 0;
    const many: ApplicationsFinder['applications']['iterate'] = async function* () {
      for (let i = 0; i < 5; i += 1) {
        read += 1;
        yield { id: String(i), name: `app ${i}`, description: '', createdAt: '', updatedAt: '' };
      }
    };
    expect(await applicationRoutesMissing(finder(many))).toBe(false);
    expect(read).toBe(1);
  });
});
