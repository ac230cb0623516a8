import type { Application, CreateApplicationBody } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import {
  ApplicationByName,
  applicationLookupStep,
  isTransientLookupFailure,
} from '../src/application-by-name.js';
import { AqmConnectionError, AqmTimeoutError } from '../src/errors.js';
import type { ApplicationFindOrCreateError } from '../src/find-or-create-application.js';
import { application } from './helpers/application.js';

/** `client.applications` over an in-memory list; `failList`/`failCreate` make the next calls fail. */
function finder(existing: Application[] = []) {
  const calls: string[] = [];
  const api = {
    calls,
    failList: undefined as Error | undefined,
    failCreate: undefined as Error | undefined,
    applications: {
      async *iterate(query: { search?: string }) {
        calls.push(`list ${query.search}`);
        await Promise.resolve(); // the request is in flight for a moment
        if (api.failList) throw api.failList;
        yield* existing.filter((a) => a.name === query.search);
      },
      async create(body: CreateApplicationBody) {
        calls.push(`create ${body.name}`);
        if (api.failCreate) throw api.failCreate;
        const made = application(body.name, `id-${existing.length + 1}`);
        existing.push(made);
        return made;
      },
    },
  };
  return api;
}

const at = { method: 'GET', path: '/applications', status: undefined };
const withStatus = (status: number) => Object.assign(new Error(`answered ${status}`), { status });

describe('ApplicationByName', () => {
  it('shares one lookup between callers at the same time, then remembers the id', async () => {
    const api = finder([application('support-bot', 'id-7')]);
    const named = new ApplicationByName(api, { name: 'support-bot' });
    expect(named.id).toBeUndefined();
    const both = await Promise.all([
      named.find(),
      named.lookup({ signal: new AbortController().signal, timeoutMs: 1000 }),
    ]);
    expect(both).toEqual(['id-7', 'id-7']);
    expect(await named.find()).toBe('id-7');
    expect(named.id).toBe('id-7');
    expect(api.calls).toEqual(['list support-bot']);
  });

  it("rejects with the client's own error and the step, says it, and asks again on the next call", async () => {
    const api = finder();
    const failures: [string, boolean][] = [];
    const found: string[] = [];
    const named = new ApplicationByName(
      api,
      { name: 'checkout', description: 'made here' },
      {
        found: (id) => found.push(id),
        failed: (error: ApplicationFindOrCreateError, aborted) => failures.push([error.step, aborted]),
      },
    );
    const down = new AqmConnectionError('connect ECONNREFUSED 127.0.0.1:4000', at);
    api.failList = down;
    const rejected = await named.find().catch((error: unknown) => error);
    expect(rejected).toBe(down);
    expect(applicationLookupStep(rejected)).toBe('find');
    api.failList = undefined;
    api.failCreate = withStatus(403);
    const refused = await named.find().catch((error: unknown) => error);
    expect(refused).toBe(api.failCreate);
    expect(applicationLookupStep(refused)).toBe('create');
    api.failCreate = undefined;
    expect(await named.find()).toBe('id-1');
    expect(failures).toEqual([
      ['find', false],
      ['create', false],
    ]);
    expect(found).toEqual(['id-1']);
    expect(api.calls).toEqual([
      'list checkout',
      'list checkout',
      'create checkout',
      'list checkout',
      'create checkout',
    ]);
  });

  it('tells its owner a failure was an aborted request', async () => {
    const api = finder();
    const aborted: boolean[] = [];
    const named = new ApplicationByName(
      api,
      { name: 'x' },
      { failed: (_, wasAborted) => aborted.push(wasAborted) },
    );
    const controller = new AbortController();
    controller.abort();
    api.failList = new Error('aborted');
    await expect(named.find({ signal: controller.signal })).rejects.toThrow('aborted');
    expect(aborted).toEqual([true]);
  });
});

describe('isTransientLookupFailure', () => {
  it('is true for an unreachable service, a timeout, 408, 429 and 5xx only', () => {
    expect(isTransientLookupFailure(new AqmConnectionError('down', at))).toBe(true);
    expect(isTransientLookupFailure(new AqmTimeoutError('slow', { ...at, timeoutMs: 1000 }))).toBe(true);
    for (const status of [408, 429, 500, 503])
      expect(isTransientLookupFailure(withStatus(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 409])
      expect(isTransientLookupFailure(withStatus(status))).toBe(false);
    // Neither an answer nor a connection failure: a bug or a bad answer, not something that passes.
    expect(isTransientLookupFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isTransientLookupFailure(undefined)).toBe(false);
  });
});
