import { errorFromResponse } from '@aqm/client';
import type { Application, CreateApplicationBody } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import {
  ApplicationLookupError,
  type ApplicationsApi,
  type CallOptions,
  namedApplication,
  resolveApplication,
} from '../src/application/resolve-application.js';

/** An error shaped like @aqm/client's: a name, a status when the service answered. */
function serviceError(status: number | undefined, message: string): Error {
  return Object.assign(new Error(message), {
    name: status === undefined ? 'AqmConnectionError' : 'AqmApiError',
    status,
  });
}

/** An in-memory applications API: `search` matches case-insensitively and partially, like the service. */
class FakeApplications implements ApplicationsApi {
  readonly stored: Application[] = [];
  readonly calls: string[] = [];
  readonly signals: Array<AbortSignal | undefined> = [];
  failWith: { list?: Error; create?: Error; get?: Error } = {};
  /** Something to do after a failed create (another process creating the application). */
  onCreateFailure: (() => void) | undefined;

  add(name: string): Application {
    const now = new Date().toISOString();
    const application = { id: crypto.randomUUID(), name, description: '', createdAt: now, updatedAt: now };
    this.stored.push(application);
    return application;
  }

  readonly applications = {
    iterate: (query: { search?: string }, options: CallOptions): AsyncIterable<Application> => {
      this.calls.push(`list ${query.search}`);
      this.signals.push(options.signal);
      const failure = this.failWith.list;
      const matches = this.stored.filter((app) =>
        app.name.toLowerCase().includes((query.search ?? '').toLowerCase()),
      );
      return (async function* () {
        if (failure) throw failure;
        yield* matches;
      })();
    },
    create: async (body: CreateApplicationBody, options: CallOptions): Promise<Application> => {
      this.calls.push(`create ${body.name} (${body.description})`);
      this.signals.push(options.signal);
      if (this.failWith.create) {
        this.onCreateFailure?.();
        throw this.failWith.create;
      }
      return this.add(body.name);
    },
    get: async (id: string, options: CallOptions) => {
      this.calls.push(`get ${id}`);
      this.signals.push(options.signal);
      if (this.failWith.get) throw this.failWith.get;
      const found = this.stored.find((app) => app.id === id);
      if (!found) throw serviceError(404, 'Application not found');
      return {
        ...found,
        monitoring: { metrics: [], plugins: [], securityPurpose: '', securityConfig: {}, logLocation: '' },
        guardrails: { enable_guard_rails: false, input_validators: [], output_validators: [] },
      };
    },
  };
}

describe('resolveApplication by name', () => {
  it('finds the application with exactly that name among partial, case-insensitive matches', async () => {
    const api = new FakeApplications();
    api.add('Support-Bot');
    const exact = api.add('support-bot');
    api.add('support-bot-eu');
    await expect(resolveApplication(api, { name: 'support-bot' })).resolves.toEqual({
      applicationId: exact.id,
      warning: undefined,
    });
    expect(api.calls).toEqual(['list support-bot']);
  });

  it('creates it, with a description saying who did, when there is none', async () => {
    const api = new FakeApplications();
    api.add('support-bot-eu');
    const { applicationId } = await resolveApplication(api, { name: 'support-bot' });
    expect(api.stored.find((app) => app.id === applicationId)?.name).toBe('support-bot');
    expect(api.calls).toEqual([
      'list support-bot',
      'create support-bot (Created by @aqm/auto (AQM_APPLICATION_NAME))',
    ]);
  });

  it('on 409 (another process created it meanwhile) finds the one that now exists', async () => {
    const api = new FakeApplications();
    api.failWith.create = serviceError(409, 'Application name already in use');
    let theirs: Application | undefined;
    api.onCreateFailure = () => {
      theirs = api.add('support-bot');
    };
    const { applicationId } = await resolveApplication(api, { name: 'support-bot' });
    expect(applicationId).toBe(theirs?.id);
    expect(api.calls).toEqual([
      'list support-bot',
      'create support-bot (Created by @aqm/auto (AQM_APPLICATION_NAME))',
      'list support-bot',
    ]);
  });

  it.each([
    [
      serviceError(401, 'Invalid API key'),
      'The service rejected AQM_API_KEY (401) while looking up application "support-bot" (AQM_APPLICATION_NAME): check the key',
    ],
    [
      serviceError(403, 'Forbidden'),
      'The service answered 403 while looking up application "support-bot" (AQM_APPLICATION_NAME): Forbidden',
    ],
  ])('a definite answer to the lookup rejects saying what went wrong (%s)', async (error, message) => {
    const api = new FakeApplications();
    api.failWith.list = error;
    const lookup = resolveApplication(api, { name: 'support-bot' });
    await expect(lookup).rejects.toBeInstanceOf(ApplicationLookupError);
    await expect(lookup).rejects.toThrow(message);
  });

  it.each([
    [
      serviceError(undefined, 'connect ECONNREFUSED 127.0.0.1:4000'),
      'Could not reach the service at AQM_BASE_URL while looking up application "support-bot" (AQM_APPLICATION_NAME): connect ECONNREFUSED 127.0.0.1:4000',
    ],
    [
      serviceError(503, 'Service unavailable'),
      'The service answered 503 while looking up application "support-bot" (AQM_APPLICATION_NAME): Service unavailable',
    ],
  ])(
    'a lookup that may pass gives no id and a warning: traces are kept and the name looked up again (%s)',
    async (error, message) => {
      const api = new FakeApplications();
      api.failWith.list = error;
      await expect(resolveApplication(api, { name: 'support-bot' })).resolves.toEqual({
        applicationId: undefined,
        warning:
          `${message}; traces are kept (in memory, then in AQM_PERSIST_DIR when set) ` +
          'and the name is looked up again when they are sent',
      });
    },
  );

  it('a failed create rejects naming the create', async () => {
    const api = new FakeApplications();
    api.failWith.create = serviceError(400, 'name: must be 1 to 100 characters');
    await expect(resolveApplication(api, { name: 'support-bot' })).rejects.toThrow(
      'The service answered 400 while creating application "support-bot" (AQM_APPLICATION_NAME): name: must be 1 to 100 characters',
    );
  });

  it('a 404 on the list (a base URL without its path prefix) says so, in one sentence with one period', async () => {
    const api = new FakeApplications();
    // The client's own error for that answer, whose message ends with a period.
    api.failWith.list = errorFromResponse(
      404,
      { message: 'Route GET /applications not found' },
      {},
      'GET',
      '/applications',
    );
    const error = await resolveApplication(api, { name: 'support-bot' }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      'The service answered 404 while looking up application "support-bot" (AQM_APPLICATION_NAME): ' +
        '404 Not Found on GET /applications: Route GET /applications not found. The resource does not exist or ' +
        "this API key cannot access it; check that AQM_BASE_URL includes the service's path prefix, e.g. http://127.0.0.1:4000/api",
    );
  });

  it('passes the abort signal to every request', async () => {
    const api = new FakeApplications();
    const controller = new AbortController();
    await resolveApplication(api, { name: 'support-bot' }, { signal: controller.signal });
    expect(api.signals).toEqual([controller.signal, controller.signal]);
  });
});

describe('namedApplication: the lookup the processors share with the startup one', () => {
  it('after a startup lookup that could not reach the service, looks up again and rejects with the client error itself', async () => {
    const api = new FakeApplications();
    api.failWith.list = serviceError(undefined, 'connect ECONNREFUSED 127.0.0.1:4000');
    const named = namedApplication(api, 'support-bot');
    const started = await resolveApplication(api, { name: 'support-bot' }, { named });
    expect(started.applicationId).toBeUndefined();
    const request = { signal: new AbortController().signal, timeoutMs: 1000 };
    // The client's error, not a message of ours: the pipeline sorts it (here: retry, traces kept).
    await expect(named.lookup(request)).rejects.toBe(api.failWith.list);
    api.failWith.list = undefined;
    const id = await named.lookup(request);
    expect(api.stored.find((app) => app.id === id)?.name).toBe('support-bot');
    await expect(named.lookup(request)).resolves.toBe(id);
    expect(api.calls).toEqual([
      'list support-bot',
      'list support-bot',
      'list support-bot',
      'create support-bot (Created by @aqm/auto (AQM_APPLICATION_NAME))',
    ]);
  });

  it('once the startup lookup found the id, the processors do not ask again', async () => {
    const api = new FakeApplications();
    const app = api.add('support-bot');
    const named = namedApplication(api, 'support-bot');
    await resolveApplication(api, { name: 'support-bot' }, { named });
    await expect(named.lookup({ signal: new AbortController().signal, timeoutMs: 1000 })).resolves.toBe(
      app.id,
    );
    expect(api.calls).toEqual(['list support-bot']);
  });
});

describe('resolveApplication by id', () => {
  it('checks the id with one read', async () => {
    const api = new FakeApplications();
    const app = api.add('support-bot');
    await expect(resolveApplication(api, { id: app.id })).resolves.toEqual({
      applicationId: app.id,
      warning: undefined,
    });
    expect(api.calls).toEqual([`get ${app.id}`]);
  });

  it('rejects an id the service does not know (404) or a refused key (401)', async () => {
    const api = new FakeApplications();
    const id = '0f8e2d4c-6b1a-4c3e-9d7f-5a2b8c1e4d6f';
    await expect(resolveApplication(api, { id })).rejects.toThrow(
      `The service does not know application ${id} (AQM_APPLICATION_ID), or AQM_API_KEY cannot access it (404)`,
    );
    api.failWith.get = serviceError(401, 'Invalid API key');
    await expect(resolveApplication(api, { id })).rejects.toThrow(
      `The service rejected AQM_API_KEY (401) while checking application ${id}: check the key`,
    );
  });

  it('says to check the path prefix of AQM_BASE_URL, not the id, when the application list is a 404 too', async () => {
    const api = new FakeApplications();
    const id = '0f8e2d4c-6b1a-4c3e-9d7f-5a2b8c1e4d6f';
    api.failWith.get = serviceError(404, `Route GET /applications/${id} not found`);
    api.failWith.list = serviceError(404, 'Route GET /applications not found');
    await expect(resolveApplication(api, { id })).rejects.toThrow(
      `The service answered 404 while checking application ${id}: Route GET /applications/${id} not found; ` +
        "check that AQM_BASE_URL includes the service's path prefix, e.g. http://127.0.0.1:4000/api",
    );
    expect(api.calls).toEqual([`get ${id}`, 'list undefined']);
  });

  it('keeps the id, with a warning, when the service cannot be reached now (traces are retried)', async () => {
    const api = new FakeApplications();
    const id = '0f8e2d4c-6b1a-4c3e-9d7f-5a2b8c1e4d6f';
    api.failWith.get = serviceError(undefined, 'connect ECONNREFUSED 127.0.0.1:4000');
    await expect(resolveApplication(api, { id })).resolves.toEqual({
      applicationId: id,
      warning: `Could not reach the service at AQM_BASE_URL while checking application ${id}: connect ECONNREFUSED 127.0.0.1:4000; traces are queued and retried`,
    });
  });
});
