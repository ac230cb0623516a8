import { randomUUID } from 'node:crypto';
import { type RunningServer, startServer } from '@aqm/server';
import {
  authErrorBodySchema,
  errorEnvelopeSchema,
  pagedEnvelope,
  type RouteDef,
  type RouteName,
  routes,
  successEnvelope,
  validationErrorEnvelopeSchema,
} from '@aqm/wire';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, newTraceId, uniqueName } from './helpers.js';

/** Fixed, so a failure replays; fast-check prints the seed and the shrunk counterexample. */
const SEED = 20_261_124;
const RUNS_PER_ROUTE = 100;
const KEY = `fuzz-${randomUUID()}`;

/** Statuses the spec or the contract decisions name for a request with a valid key. */
const ERROR_STATUSES = [400, 404, 409, 413, 415];

/** Ids that exist, so part of the fuzzed requests reach the handlers past the 404s. */
interface Known {
  applicationId: string;
  traceId: string;
  evaluationId: string;
}

/** An answer as read off the wire. */
interface Answer {
  status: number;
  text: string;
}

/** The spec's envelope for `status` on `def`: success with the route's data, or the error shapes. */
function checkEnvelope(def: RouteDef, answer: Answer): void {
  expect(answer.status, answer.text).toBeLessThan(500);
  const body: unknown = JSON.parse(answer.text);
  if (answer.status === 200) {
    const envelope = def.response === 'paged' ? pagedEnvelope(def.data) : successEnvelope(def.data);
    envelope.strict().parse(body);
  } else if (answer.status === 400) {
    const { errors } = validationErrorEnvelopeSchema.strict().parse(body);
    expect(errors.length).toBeGreaterThan(0);
  } else if (answer.status === 401) {
    authErrorBodySchema.parse(body);
  } else {
    expect(ERROR_STATUSES, answer.text).toContain(answer.status);
    errorEnvelopeSchema.strict().parse(body);
  }
}

/** Every path inside a JSON value, as lists of keys and indexes (the root is `[]`). */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) out.push(...pathsOf(item, [...at, i]));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...at, key]));
  }
  return out;
}

/** One change to a valid body: a value replaced, a key removed, or an unknown key added. */
interface Mutation {
  pick: number;
  op: 'replace' | 'delete' | 'add';
  value: unknown;
  key: string;
}

function mutate(valid: unknown, { pick, op, value, key }: Mutation): unknown {
  const copy: unknown = structuredClone(valid);
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length]!;
  if (path.length === 0) return op === 'replace' ? value : copy;
  const parent = path.slice(0, -1).reduce<unknown>((node, step) => (node as never)[step], copy) as Record<
    string | number,
    unknown
  >;
  const last = path[path.length - 1]!;
  if (op === 'replace') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      (target as Record<string, unknown>)[key] = value;
    } else parent[last] = value;
  }
  return copy;
}

/** A valid body of each route that takes one, to mutate; a route without one gets random JSON only. */
function validBodies(known: Known, metric: string): Partial<Record<RouteName, unknown>> {
  const now = Date.now();
  return {
    'applications.create': { name: 'fuzzed application', description: 'made by the fuzz test' },
    'applications.update': { name: 'fuzzed rename', description: 'renamed' },
    'monitoring.update': {
      metrics: [{ type: metric, threshold: 0.5 }],
      plugins: {},
      securityPurpose: 'answers questions',
      securityConfig: { purpose: 'support', userTypes: 'customers' },
    },
    'guardrails.update': {
      enable_guard_rails: true,
      input_validators: [{ type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS'] } }],
      output_validators: [{ type: 'toxicity', on_fail: 'fail', config: { threshold: 0.5 } }],
    },
    'evaluations.submit': {
      traces: [
        makeTrace(new Date(now - 1000), 500, {
          traceId: known.traceId,
          usage: { inputTokens: 3, outputTokens: 4 },
          metadata: { tenant: 'fuzz' },
          spans: [
            {
              spanId: 'a1b2c3d4e5f60718',
              name: 'chat',
              kind: 'client',
              startTime: new Date(now - 1000).toISOString(),
              endTime: new Date(now - 500).toISOString(),
              status: { code: 'ok' },
              attributes: { 'gen_ai.system': 'openai' },
            },
          ],
        }),
      ],
    },
    'widgets.data': {
      types: ['trace-volume', 'latency'],
      start: new Date(now - 3_600_000).toISOString(),
      end: new Date(now + 3_600_000).toISOString(),
    },
  };
}

/** Any JSON value, strings of any code unit (lone surrogates too) and deep nesting included. */
const anyJson = fc.oneof(
  fc.jsonValue(),
  fc.jsonValue({ stringUnit: 'binary', depthSize: 'large', maxDepth: 40 }),
);

/** Query values: numbers in and out of range, dates good and bad, enum values, anything. */
const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 150 }).map(String),
  fc.constantFrom('', '1.5', 'abc', 'success', 'error', 'input', 'output', 'pii', '0', '101'),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2026-01-01', '2026-01-01T10:00:00', '2026-01-01T10:00:00+0100', '2026-02-30T00:00:00Z'),
  fc.string({ unit: 'binary' }),
);

describe('fuzz: every route of the wire table, random bodies, queries and path params', () => {
  let srv: RunningServer;
  let known: Known;
  let bodies: Partial<Record<RouteName, unknown>>;

  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: KEY, projectId: 'fuzz' }] });
    const call = caller(srv.url, KEY);
    const applicationId = (await call('POST', '/applications', { json: { name: uniqueName('fuzz') } })).body
      .data.id as string;
    const metric = (await call('GET', '/metrics/eval')).body.data[0].name as string;
    const guardrails = { input_validators: [{ type: 'pii', on_fail: 'mask' }], enable_guard_rails: true };
    expect(
      (await call('PUT', `/applications/${applicationId}/guardrails`, { json: guardrails })).status,
    ).toBe(200);
    const trace = makeTrace(new Date(), 100, { traceId: newTraceId(), prompt: 'mail me at a@b.example' });
    expect(
      (await call('POST', `/applications/${applicationId}/evaluations`, { json: { traces: [trace] } }))
        .status,
    ).toBe(200);
    const range = `start=${new Date(Date.now() - 60_000).toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}`;
    const records = await call('GET', `/applications/${applicationId}/guardrails/evaluations?${range}`);
    const evaluationId = records.body.data.results[0].id as string;
    known = { applicationId, traceId: trace.traceId, evaluationId };
    bodies = validBodies(known, metric);
  });
  afterAll(() => srv?.close());

  async function send(method: string, path: string, init: { body?: string; type?: string; key?: string }) {
    const headers: Record<string, string> = {};
    if (init.key !== undefined) headers['x-api-key'] = init.key;
    if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
    const response = await fetch(`${srv.url}${path}`, { method, headers, body: init.body });
    return { status: response.status, text: await response.text() };
  }

  /**
   * A path segment for a parameter, already encoded: the known id, a well-formed unknown one,
   * anything encoded, raw text that may be badly percent-encoded (`%`, `%zz`, a cut UTF-8 sequence),
   * or a very long one.
   */
  function paramSegment(name: string): fc.Arbitrary<string> {
    const real = (known as unknown as Record<string, string>)[name];
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(real ?? 'x') },
      fc.uuid().map(String),
      fc.stringMatching(/^[0-9a-f]{32}$/),
      fc.string({ minLength: 1 }).map(encodeURIComponent),
      fc.stringMatching(/^[A-Za-z0-9%._~-]{1,12}$/),
      fc.constantFrom('..', '%', '%zz', '%E0%A4%A', '%00', '%ED%A0%80', 'null'),
      // Past fastify's default parameter length (100), which it answered with its own 414 body.
      fc.integer({ min: 101, max: 4000 }).map((length) => 'f'.repeat(length)),
    );
  }

  function requestOf(name: RouteName) {
    const def: RouteDef = routes[name];
    const paramNames = [...def.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    const params = fc.tuple(...paramNames.map(paramSegment));
    const queryKeys = Object.keys((def.query as { shape?: object } | undefined)?.shape ?? {});
    const randomPairs = fc.array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('page', ...queryKeys) },
          fc.string({ unit: 'binary' }),
        ),
        queryValue,
      ),
      { maxLength: 6 },
    );
    // A valid range where the route takes one (required by the guardrail list), plus random pairs.
    const now = Date.now();
    const range = [
      ['start', new Date(now - 3_600_000).toISOString()],
      ['end', new Date(now + 3_600_000).toISOString()],
    ].filter(([key]) => queryKeys.includes(key!)) as [string, string][];
    const query = fc.oneof(
      randomPairs,
      fc
        .array(fc.tuple(fc.constantFrom(...queryKeys, 'other'), queryValue), { maxLength: 2 })
        .map((more) => [...range, ...more]),
    );
    const valid = bodies[name];
    const json = fc.oneof(
      anyJson.map((value) => JSON.stringify(value)),
      ...(valid === undefined
        ? []
        : [
            fc.constant(JSON.stringify(valid)),
            fc
              .record({
                pick: fc.nat(),
                op: fc.constantFrom('replace' as const, 'delete' as const, 'add' as const),
                value: anyJson,
                key: fc.string({ unit: 'binary' }),
              })
              .map((mutation) => JSON.stringify(mutate(valid, mutation))),
          ]),
    );
    const body =
      def.body === undefined
        ? fc.constant(undefined)
        : fc.oneof(
            { weight: 6, arbitrary: json.map((text) => ({ text, type: 'application/json' })) },
            fc.string({ unit: 'binary' }).map((text) => ({ text, type: 'application/json' })),
            fc.constantFrom('', 'null', '{', '[]', '"x"').map((text) => ({ text, type: 'application/json' })),
            json.map((text) => ({ text, type: 'text/plain' })),
          );
    return fc.record({ params, query, body }).map(({ params: values, query: pairs, body: sent }) => {
      let path = def.path;
      paramNames.forEach((param, i) => {
        path = path.replace(`{${param}}`, values[i]!);
      });
      const search = new URLSearchParams(pairs).toString();
      return { path: search === '' ? path : `${path}?${search}`, body: sent };
    });
  }

  for (const name of Object.keys(routes) as RouteName[]) {
    const def: RouteDef = routes[name];
    it(`${def.method} ${def.path} (${name}): never a 5xx, always an envelope`, async () => {
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(requestOf(name), async ({ path, body }) => {
          const answer = await send(def.method, path, { key: KEY, body: body?.text, type: body?.type });
          checkEnvelope(def, answer);
          seen.add(answer.status);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
      // Not vacuous: part of the requests got through to the handler, part were refused.
      expect([...seen]).toContain(200);
      if (def.body !== undefined || def.query !== undefined || def.path.includes('{')) {
        expect([...seen]).toContain(400);
      }
    });
  }

  it('a missing or wrong key: 401 { message } on every route', async () => {
    const names = Object.keys(routes) as RouteName[];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.option(fc.string(), { nil: undefined }),
        async (name, key) => {
          const def: RouteDef = routes[name];
          const path = def.path.replace(/\{(\w+)\}/g, (_, param: string) =>
            encodeURIComponent((known as unknown as Record<string, string>)[param] ?? 'x'),
          );
          const answer = await send(def.method, path, {
            key,
            body: def.body === undefined ? undefined : '{}',
          });
          expect(answer.status).toBe(401);
          authErrorBodySchema.parse(JSON.parse(answer.text));
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
  });
});
