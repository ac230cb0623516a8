interface Task {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns on the event loop for the synchronous steps of requests (parsing a body, validating it,
 * writing a chunk of traces), taken round-robin over projects, one step per turn of the loop.
 * Without it the steps run in the order their input arrives: a project with many requests in
 * progress has many steps ready at once, and another project's step waits behind all of them;
 * here it waits behind at most one step of each other project, and the sockets' I/O is served
 * between steps. Each project waits in its own queue; a project leaves the map when its queue
 * empties (bounded by the requests in progress, which admission bounds).
 */
export class FairTurns {
  readonly #queues = new Map<string, Task[]>();
  #scheduled = false;

  /** Runs `work` for `project` in its turn; resolves with what it returns, rejects with what it throws. */
  run<T>(project: string, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queue = this.#queues.get(project);
      const task: Task = { work, resolve: resolve as (value: unknown) => void, reject };
      if (queue === undefined) this.#queues.set(project, [task]);
      else queue.push(task);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate, not a microtask: the sockets' callbacks (other projects' requests arriving)
    // run between two turns.
    setImmediate(() => this.#turn());
  }

  /** One step per turn: the loop's other callbacks (the sockets, the scoring workers) run between two. */
  #turn(): void {
    this.#scheduled = false;
    const next = this.#queues.entries().next();
    if (next.done === true) return;
    const [project, queue] = next.value;
    const task = queue.shift() as Task;
    // Round-robin: the project that had its step goes to the back of the order.
    this.#queues.delete(project);
    if (queue.length > 0) this.#queues.set(project, queue);
    try {
      task.resolve(task.work());
    } catch (error) {
      task.reject(error);
    }
    if (this.#queues.size > 0) this.#schedule();
  }
}
