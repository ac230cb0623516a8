import type { Application, CreateApplicationBody } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { ApplicationFindOrCreateError, findOrCreateApplication } from '../src/find-or-create-application.js';
import { application } from './helpers/application.js';

/** `client.applications` over an in-memory list; `beforeCreate` may fail or race the create. */
function finder(existing: Application[], beforeCreate?: () => void) {
  const created: CreateApplicationBody[] = [];
  const searches: (string | undefined)[] = [];
  return {
    created,
    searches,
    applications: {
      async *iterate(query: { search?: string }) {
        searches.push(query.search);
        yield* existing.filter((a) => a.name.toLowerCase().includes((query.search ?? '').toLowerCase()));
      },
      async create(body: CreateApplicationBody) {
        beforeCreate?.();
        created.push(body);
        const made = application(body.name, `id-${created.length}`);
        existing.push(made);
        return made;
      },
    },
  };
}

describe('findOrCreateApplication', () => {
  it('finds the exact name among partial matches, and creates nothing', async () => {
    const client = finder([application('support-bot-2', 'a'), application('support-bot', 'b')]);
    expect(await findOrCreateApplication(client, { name: 'support-bot' })).toBe('b');
    expect(client.created).toEqual([]);
  });

  it('creates the application, with the body given, when no name matches exactly', async () => {
    const client = finder([application('support-bot-2', 'a')]);
    const body = { name: 'support-bot', description: 'Helpdesk' };
    expect(await findOrCreateApplication(client, body)).toBe('id-1');
    expect(client.created).toEqual([body]);
  });

  it('after a 409 (another process created it first), looks again and returns that one', async () => {
    const list: Application[] = [];
    const client = finder(list, () => {
      list.push(application('support-bot', 'theirs'));
      throw Object.assign(new Error('name taken'), { status: 409 });
    });
    expect(await findOrCreateApplication(client, { name: 'support-bot' })).toBe('theirs');
    expect(client.searches).toEqual(['support-bot', 'support-bot']);
  });

  it('names the step that failed, with the client error as the cause', async () => {
    const refused = Object.assign(new Error('bad key'), { status: 401 });
    const failingFind = finder([]);
    failingFind.applications.iterate = async function* () {
      yield* [];
      throw refused;
    };
    const findError = await findOrCreateApplication(failingFind, { name: 'x' }).catch((e: unknown) => e);
    expect(findError).toBeInstanceOf(ApplicationFindOrCreateError);
    expect(findError).toMatchObject({ step: 'find', cause: refused });

    const invalid = Object.assign(new Error('name: too long'), { status: 400 });
    const createError = await findOrCreateApplication(
      finder([], () => {
        throw invalid;
      }),
      { name: 'x' },
    ).catch((e: unknown) => e);
    expect(createError).toMatchObject({ step: 'create', cause: invalid });
    // A 409 whose winner cannot be found is still the create step's failure.
    const conflict = Object.assign(new Error('taken'), { status: 409 });
    const lost = await findOrCreateApplication(
      finder([], () => {
        throw conflict;
      }),
      { name: 'x' },
    ).catch((e: unknown) => e);
    expect(lost).toMatchObject({ step: 'create', cause: conflict });
  });
});
