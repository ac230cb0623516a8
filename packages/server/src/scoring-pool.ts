import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ProcessedTrace, processTraces, type ScoringJob } from './evaluation-pipeline.js';
import type { ScoringReply, ScoringRequest } from './scoring-worker.js';

interface Waiting {
  job: ScoringJob;
  resolve: (processed: ProcessedTrace[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Waiting | undefined;
  project: string | undefined;
  seq: number;
}

/**
 * Scores submissions in worker threads, so a hostile text (5 MiB scored by every pattern) never
 * holds the event loop that answers the other tenants. Fair between projects: each project has
 * its own queue, a project has at most `size - 1` jobs running (one worker stays free for the
 * others), and free workers take the next job round-robin over the projects that wait.
 * Running from TypeScript sources (the unit tests), where no worker file exists, it scores in
 * this thread, one trace per turn of the event loop.
 */
export class ScoringPool {
  readonly #size: number;
  readonly #workerFile: string | undefined;
  readonly #slots: Slot[] = [];
  /** Waiting jobs by project; a project leaves the map when its queue empties (bounded by waiting requests). */
  readonly #queues = new Map<string, Waiting[]>();
  readonly #running = new Map<string, number>();
  #closed = false;

  constructor(size = Math.max(2, Math.min(4, availableParallelism()))) {
    this.#size = size;
    this.#workerFile = workerFile();
  }

  /** Scores a job for `project`; resolves with each trace's results and records, in order. */
  score(project: string, job: ScoringJob): Promise<ProcessedTrace[]> {
    if (this.#closed) return Promise.reject(new Error('the scoring pool is closed'));
    if (this.#workerFile === undefined) return scoreInline(job);
    return new Promise((resolve, reject) => {
      const queue = this.#queues.get(project) ?? [];
      queue.push({ job, resolve, reject });
      this.#queues.set(project, queue);
      this.#dispatch();
    });
  }

  /** Stops the workers; jobs still waiting or running are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error('the service is closing');
    for (const queue of this.#queues.values()) for (const waiting of queue) waiting.reject(error);
    this.#queues.clear();
    await Promise.all(
      this.#slots.splice(0).map((slot) => {
        slot.busy?.reject(error);
        return slot.worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    for (;;) {
      const project = this.#nextProject();
      if (project === undefined) return;
      const slot = this.#freeSlot();
      if (slot === undefined) return;
      const queue = this.#queues.get(project) as Waiting[];
      const waiting = queue.shift() as Waiting;
      // Round-robin: a project that got a worker goes to the back of the order.
      this.#queues.delete(project);
      if (queue.length > 0) this.#queues.set(project, queue);
      slot.busy = waiting;
      slot.project = project;
      slot.seq += 1;
      this.#running.set(project, (this.#running.get(project) ?? 0) + 1);
      slot.worker.postMessage({ seq: slot.seq, job: waiting.job } satisfies ScoringRequest);
    }
  }

  /** The first project in round-robin order that waits and may start another job. */
  #nextProject(): string | undefined {
    const perProject = Math.max(1, this.#size - 1);
    for (const project of this.#queues.keys()) {
      if ((this.#running.get(project) ?? 0) < perProject) return project;
    }
    return undefined;
  }

  #freeSlot(): Slot | undefined {
    const free = this.#slots.find((slot) => slot.busy === undefined);
    if (free !== undefined || this.#slots.length >= this.#size) return free;
    const slot: Slot = {
      worker: new Worker(this.#workerFile as string),
      busy: undefined,
      project: undefined,
      seq: 0,
    };
    // The workers never keep the process alive: the server's socket does.
    slot.worker.unref();
    slot.worker.on('message', (reply: ScoringReply) => this.#finish(slot, reply));
    slot.worker.on('error', (error) => this.#fail(slot, error));
    slot.worker.on('exit', () => this.#fail(slot, new Error('a scoring worker stopped')));
    this.#slots.push(slot);
    return slot;
  }

  #finish(slot: Slot, reply: ScoringReply): void {
    const waiting = slot.busy;
    if (waiting === undefined || reply.seq !== slot.seq) return;
    this.#release(slot);
    if ('error' in reply) waiting.reject(new Error(`scoring failed: ${reply.error}`));
    else {
      waiting.resolve(
        reply.scored.map((scored, i) => ({
          trace: waiting.job.traces[i] as ScoringJob['traces'][number],
          ...scored,
        })),
      );
    }
    this.#dispatch();
  }

  /** A worker that died (out of memory, a crash) fails its job and is replaced on demand. */
  #fail(slot: Slot, error: Error): void {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    const waiting = slot.busy;
    this.#release(slot);
    void slot.worker.terminate();
    waiting?.reject(error);
    if (!this.#closed) this.#dispatch();
  }

  #release(slot: Slot): void {
    if (slot.project !== undefined) {
      const running = (this.#running.get(slot.project) ?? 1) - 1;
      if (running > 0) this.#running.set(slot.project, running);
      else this.#running.delete(slot.project);
    }
    slot.busy = undefined;
    slot.project = undefined;
  }
}

/** The built worker next to this file (`.js` from ESM, `.cjs` from CJS), or undefined from sources. */
function workerFile(): string | undefined {
  const here = import.meta.url;
  const extension = here.endsWith('.cjs') ? '.cjs' : here.endsWith('.js') ? '.js' : undefined;
  if (extension === undefined) return undefined;
  const file = fileURLToPath(new URL(`./scoring-worker${extension}`, here));
  return existsSync(file) ? file : undefined;
}

/** Scoring in this thread, yielding to the event loop between traces (sources only). */
async function scoreInline(job: ScoringJob): Promise<ProcessedTrace[]> {
  const processed: ProcessedTrace[] = [];
  for (const trace of job.traces) {
    await new Promise((resolve) => setImmediate(resolve));
    processed.push(...processTraces({ ...job, traces: [trace] }));
  }
  return processed;
}
