import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { AqmClient, type AqmClientOptions, type EvaluationTraceInput } from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';
import { expect } from 'vitest';

/** A running local service with two projects, and a client holding the first project's key. */
export interface Service {
  srv: RunningServer;
  /** Client of project A, the project the tests work in. */
  client: AqmClient;
  /** Key of project A. */
  key: string;
  /** Key of project B, which must not see project A's data. */
  otherKey: string;
  /** A client of `srv` with other options (the caller closes it, or `stop()` does). */
  clientWith(options: AqmClientOptions): AqmClient;
  /** Closes every client made here, then the service. */
  stop(): Promise<void>;
}

/** A random key, so a test can tell whether it leaked into a message. */
function newKey(label: string): string {
  return `aqm_test_${label}_${randomBytes(12).toString('hex')}`;
}

/**
 * Starts one local service per test file, with a key for project A and one for project B, on a
 * free loopback port.
 */
export async function startService(): Promise<Service> {
  const key = newKey('a');
  const otherKey = newKey('b');
  const srv = await startServer({
    apiKeys: [
      { key, projectId: 'project-a' },
      { key: otherKey, projectId: 'project-b' },
    ],
  });
  const clients: AqmClient[] = [];
  const clientWith = (options: AqmClientOptions): AqmClient => {
    const made = new AqmClient({ apiKey: key, baseUrl: srv.url, ...options });
    clients.push(made);
    return made;
  };
  const client = clientWith({});
  return {
    srv,
    client,
    key,
    otherKey,
    clientWith,
    stop: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await srv.close();
    },
  };
}

/** A unique application name, so tests sharing a service never collide. */
export function uniqueName(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/** A random trace id: 32 lowercase hex characters. */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** A random span id: 16 lowercase hex characters. */
export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

/** A trace starting at `startMs` and lasting `durationMs`, with `Date` timestamps as a caller would pass. */
export function makeTrace(
  startMs: number,
  durationMs: number,
  overrides: Partial<EvaluationTraceInput> = {},
): EvaluationTraceInput {
  return {
    traceId: newTraceId(),
    prompt: 'What is the refund policy?',
    response: 'Refunds are possible within 30 days of purchase.',
    startTime: new Date(startMs),
    endTime: new Date(startMs + durationMs),
    status: 'success',
    ...overrides,
  };
}

/** An inclusive time range of an hour either side of now. */
export function aroundNow(): { start: Date; end: Date } {
  const now = Date.now();
  return { start: new Date(now - 3_600_000), end: new Date(now + 3_600_000) };
}

/** Every item of an async iterable, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * The error `promise` rejects with, checked to be exactly of class `type` (not a subclass or a
 * parent class), so each test pins the class the client picked.
 */
export async function rejection<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: true as const, value }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error(`expected a ${type.name}, but the call resolved`);
  expect(outcome.error).toBeInstanceOf(type);
  expect((outcome.error as object).constructor).toBe(type);
  return outcome.error as E;
}

/** A loopback port that was free a moment ago and has nothing listening on it now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return address.port;
}
