import { randomUUID } from 'node:crypto';
import { type RunningServer, startServer } from '@aqm/server';

/** The most seeds tried for one pattern: a pattern of n requests at rate 0.5 needs about 2^n. */
const MAX_SEEDS = 4096;

/**
 * Finds fault seeds that make a `rate` rule hit an exact sequence of requests (e.g. the first two,
 * then not the third), so a case can say "fails twice, then recovers" without the test racing the
 * exporter or the client to switch the fault off. The seeds are found by asking a probe service
 * (setting the faults restarts its PRNG), so nothing here depends on the PRNG's numbers.
 */
export class SeedFinder {
  readonly #srv: RunningServer;
  readonly #key: string;
  readonly #found = new Map<string, Promise<number>>();
  /** The probe service has one set of faults at a time: searches run one after another. */
  #last: Promise<unknown> = Promise.resolve();

  private constructor(srv: RunningServer, key: string) {
    this.#srv = srv;
    this.#key = key;
  }

  static async start(): Promise<SeedFinder> {
    const key = `seed-probe-${randomUUID()}`;
    return new SeedFinder(await startServer({ apiKeys: [{ key, projectId: 'seed-probe' }] }), key);
  }

  /**
   * A seed with which one rule of `rate` hits the n-th request it matches exactly when
   * `pattern[n]` is true. Each matching rule draws one number per request whatever its effect,
   * so a seed found with a status rule holds for a reset or hang rule of the same rate.
   */
  seedFor(pattern: readonly boolean[], rate: number): Promise<number> {
    const label = `${rate}:${pattern.map(Number).join('')}`;
    let found = this.#found.get(label);
    if (found === undefined) {
      found = this.#last.then(() => this.#search(pattern, rate, label));
      this.#found.set(label, found);
      this.#last = found.catch(() => undefined);
    }
    return found;
  }

  close(): Promise<void> {
    return this.#srv.close();
  }

  async #search(pattern: readonly boolean[], rate: number, label: string): Promise<number> {
    for (let seed = 1; seed <= MAX_SEEDS; seed++) {
      this.#srv.setFaults({ seed, rules: [{ route: 'widgets.list', rate, status: 503 }] });
      if (await this.#follows(pattern)) return seed;
    }
    throw new Error(`no seed from 1 to ${MAX_SEEDS} gives the hit pattern ${label}`);
  }

  async #follows(pattern: readonly boolean[]): Promise<boolean> {
    for (const hit of pattern) {
      const response = await fetch(`${this.#srv.url}/widgets`, { headers: { 'x-api-key': this.#key } });
      await response.arrayBuffer();
      if ((response.status === 503) !== hit) return false;
    }
    return true;
  }
}
