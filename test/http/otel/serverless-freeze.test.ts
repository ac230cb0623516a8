import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { startTestService, storedTraces, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/**
 * A serverless runtime freezes the process as soon as an invocation is over (AWS Lambda once the
 * handler's promise settles, Vercel once what `waitUntil`/`after` holds has settled): timers,
 * sockets and requests in flight stop until the next invocation, which may never come. A child
 * process runs the handler of each invocation and says when it is over; the test then stops it at
 * once (SIGSTOP) and, while it is stopped, reads what the service stored: each invocation's traces
 * must already be there, sent in one request.
 */
const CHILD = fileURLToPath(new URL('./fixtures/serverless-child.mjs', import.meta.url));
const TRACES_PER_INVOCATION = 3;
const INVOCATIONS = 3;
const NO_LOGGING = { OTEL_LOG_LEVEL: '', AQM_DISABLED: '', OTEL_SDK_DISABLED: '', AQM_DEBUG: '' };

interface Done {
  done: number;
  traceIds: string[];
}

/** The child runtime: invocations are written to its stdin, each answered by a `done` line. */
class FrozenRuntime {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Record<string, unknown>[] = [];
  stderr = '';
  exited: Promise<number | null>;

  constructor(mode: string, env: Record<string, string>) {
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env, MODE: mode };
    for (const [name, value] of Object.entries(childEnv)) if (value === '') delete childEnv[name];
    childEnv.TRACES = String(TRACES_PER_INVOCATION);
    this.child = spawn(process.execPath, [CHILD], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let pending = '';
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = JSON.parse(pending.slice(0, end)) as Record<string, unknown>;
        pending = pending.slice(end + 1);
        // Frozen at once, in the same turn that read the line: the runtime freezes as the invocation ends.
        if ('done' in line) this.child.kill('SIGSTOP');
        this.lines.push(line);
        end = pending.indexOf('\n');
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Runs invocation `id` and resolves once it is over, with the child stopped. */
  async invoke(id: number): Promise<Done> {
    this.child.stdin.write(`${JSON.stringify({ id })}\n`);
    const isDone = (line: Record<string, unknown>) => line.done === id;
    await waitFor(
      () => this.lines.some(isDone),
      `invocation ${id} to end`,
      15_000,
      () => this.stderr,
    );
    // The signal is sent; the kernel stops the child a moment later. Nothing of it runs once stopped.
    await waitFor(() => processState(this.child.pid) === 'T', `invocation ${id}'s process to be stopped`);
    return this.lines.find(isDone) as unknown as Done;
  }

  thaw(): void {
    this.child.kill('SIGCONT');
  }

  /** Ends the runtime: stdin closed, the child shuts the provider down and exits. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

/** The state letter of a process on Linux (`T`: stopped), from /proc. */
function processState(pid: number | undefined): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
}

const runtimes: FrozenRuntime[] = [];

describe.skipIf(process.platform !== 'linux')(
  'a serverless handler frozen right after its invocation',
  () => {
    let service: TestService;
    let proxy: RecordingProxy;

    beforeAll(async () => {
      service = await startTestService('serverless');
      proxy = await startRecordingProxy(service.srv.url);
    });
    afterEach(() => {
      for (const runtime of runtimes.splice(0)) {
        runtime.child.kill('SIGKILL');
        runtime.child.kill('SIGCONT');
      }
    });
    afterAll(async () => {
      await proxy?.close();
      await service?.close();
    });

    const evaluationRequests = () =>
      proxy.exchanges.filter((e) => e.method === 'POST' && e.path.endsWith('/evaluations'));

    async function start(mode: string) {
      const applicationId = await service.createApp(`serverless-${mode}`);
      const runtime = new FrozenRuntime(mode, {
        ...NO_LOGGING,
        AQM_BASE_URL: proxy.url,
        AQM_API_KEY: service.apiKey,
        AQM_APPLICATION_ID: applicationId,
      });
      runtimes.push(runtime);
      return { runtime, applicationId };
    }

    /** Runs the invocations, checking while each one is frozen that its traces went in one request. */
    async function invokeAndCheckWhileFrozen(mode: string) {
      const { runtime, applicationId } = await start(mode);
      const allIds: string[] = [];
      for (let id = 1; id <= INVOCATIONS; id += 1) {
        const requestsBefore = evaluationRequests().length;
        const { traceIds } = await runtime.invoke(id);
        expect(traceIds).toHaveLength(TRACES_PER_INVOCATION);
        const stored = await storedTraces(service.client, applicationId);
        expect([...traceIds].filter((traceId) => !stored.traceIds.has(traceId))).toEqual([]);
        // One request for the invocation's traces, nothing held back for a timer.
        const requests = evaluationRequests().slice(requestsBefore);
        expect(requests.map((r) => r.sentTraceIds)).toEqual([traceIds]);
        allIds.push(...traceIds);
        runtime.thaw();
      }
      expect(await runtime.end()).toBe(0);
      expect(runtime.stderr).toBe('');
      const stored = await storedTraces(service.client, applicationId);
      expect(stored.total).toBe(allIds.length);
      return runtime;
    }

    it('Lambda, withAqmFlush: each invocation ends once its traces are stored, sent in one request', async () => {
      await invokeAndCheckWhileFrozen('lambda');
    }, 60_000);

    it('Vercel, waitUntil(processor.forceFlush()): the response goes first, the traces are stored before the freeze', async () => {
      const runtime = await invokeAndCheckWhileFrozen('wait-until');
      // The answer did not wait for the flush: it was written before each invocation ended.
      const order = runtime.lines.map((line) => ('response' in line ? 'response' : 'done'));
      expect(order).toEqual(Array.from({ length: INVOCATIONS }, () => ['response', 'done']).flat());
    }, 60_000);

    it('Next.js, after(() => processor.forceFlush()): the traces are stored before the freeze', async () => {
      await invokeAndCheckWhileFrozen('after');
    }, 60_000);

    it('without the flush (the bare handler), nothing has left when the process freezes, and a reclaimed process loses it', async () => {
      const { runtime, applicationId } = await start('lambda-bare');
      const requestsBefore = evaluationRequests().length;
      const { traceIds } = await runtime.invoke(1);
      expect(traceIds).toHaveLength(TRACES_PER_INVOCATION);
      const stored = await storedTraces(service.client, applicationId);
      expect(stored.total).toBe(0);
      expect(evaluationRequests().slice(requestsBefore)).toEqual([]);
      // The runtime reclaims a frozen environment without warning: what was held is gone.
      runtime.child.kill('SIGKILL');
      runtime.thaw();
      await runtime.exited;
      expect((await storedTraces(service.client, applicationId)).total).toBe(0);
    }, 60_000);
  },
);
