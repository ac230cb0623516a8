import type { FastifyReply, FastifyRequest } from 'fastify';

/** The `Retry-After` of a 429 (seconds): about how long a flood's requests in progress take to drain. */
export const ADMISSION_RETRY_AFTER_SECONDS = 1;

/**
 * Admission of requests per project, before their bodies are read: the service's work (parsing,
 * validation, writes) runs on one event loop, so a project with many requests in progress makes
 * every other project's requests wait behind them. Each project may have its fair share of
 * `capacity` requests in progress: `capacity` divided by the projects that have requests in
 * progress (a lone project uses all of it). A request past its project's share, or past
 * `capacity` in all, is refused (429), except a project's first: a project with nothing in
 * progress is always admitted, so a flood never locks another project out. In progress at once:
 * at most `capacity` plus one per project. A request is in progress until its response is sent
 * or its connection closes, and until its handler has finished (a client that hangs up does not
 * end the work it started). The counts are kept only for projects with requests in progress
 * (bounded by them).
 */
export class ProjectAdmission {
  readonly #capacity: number;
  readonly #inProgress = new Map<string, number>();
  /** What still holds each admitted request: its connection or response, and its handler if running. */
  readonly #holds = new WeakMap<FastifyRequest, { count: number; end: () => void }>();
  #total = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Projects with requests in progress (the entries kept). */
  get activeProjects(): number {
    return this.#inProgress.size;
  }

  /** Requests in progress, of one project or in all. */
  inProgress(project?: string): number {
    return project === undefined ? this.#total : (this.#inProgress.get(project) ?? 0);
  }

  /**
   * Admits a request of `project` and returns the function that ends it (safe to call twice),
   * or `undefined` when the project is past its share.
   */
  tryAdmit(project: string): (() => void) | undefined {
    const mine = this.#inProgress.get(project) ?? 0;
    if (mine > 0) {
      const share = Math.max(1, Math.floor(this.#capacity / this.#inProgress.size));
      if (mine >= share || this.#total >= this.#capacity) return undefined;
    }
    this.#inProgress.set(project, mine + 1);
    this.#total += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#total -= 1;
      const left = (this.#inProgress.get(project) ?? 1) - 1;
      if (left > 0) this.#inProgress.set(project, left);
      else this.#inProgress.delete(project);
    };
  }

  /**
   * The `onRequest` step after authentication: admits the request until its response is sent or
   * its connection closes, or answers 429 with `Retry-After` and the error envelope. The body of
   * a refused request is never parsed. Returns whether the request may go on.
   */
  admit(project: string, request: FastifyRequest, reply: FastifyReply): boolean {
    const end = this.tryAdmit(project);
    if (end === undefined) {
      void reply
        .code(429)
        .header('retry-after', String(ADMISSION_RETRY_AFTER_SECONDS))
        .send({
          success: false,
          message: `Too many requests in progress for this project: retry after ${ADMISSION_RETRY_AFTER_SECONDS} s`,
        });
      return false;
    }
    const hold = { count: 1, end };
    this.#holds.set(request, hold);
    // 'close' comes after the response is sent and when the connection closes before it is.
    reply.raw.once('close', () => release(hold));
    return true;
  }

  /** Keeps an admitted request in progress until `work` settles (its handler), even if its client hangs up. */
  holdWhile<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
    const hold = this.#holds.get(request);
    if (hold === undefined) return work;
    hold.count += 1;
    return work.finally(() => release(hold));
  }
}

function release(hold: { count: number; end: () => void }): void {
  hold.count -= 1;
  if (hold.count === 0) hold.end();
}
