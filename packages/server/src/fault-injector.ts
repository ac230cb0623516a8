import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { RouteName } from '@aqm/wire';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkFaults, type FaultRule, type FaultsConfig } from './faults.js';
import { seededRandom } from './prng.js';

/**
 * Applies the fault rules to requests and counts requests per route. Switchable at run time
 * ({@link FaultInjector.set}); sockets left hanging are destroyed by {@link FaultInjector.releaseHung}
 * so closing the server never waits on them.
 */
export class FaultInjector {
  #rules: FaultRule[] = [];
  #random: () => number = seededRandom(1);
  readonly #hung = new Set<Socket>();
  readonly #counts = new Map<RouteName, number>();
  #total = 0;

  constructor(faults?: FaultsConfig | null) {
    this.set(faults ?? null);
  }

  /** Replaces the rules (and restarts the PRNG from the seed); `null` switches faults off. */
  set(faults: FaultsConfig | null): void {
    if (faults === null) {
      this.#rules = [];
      return;
    }
    const checked = checkFaults(faults);
    this.#rules = checked.rules;
    this.#random = seededRandom(checked.seed);
  }

  /** Requests received for a route (or in all, without a name), faulted ones included. */
  requestCount(route?: RouteName): number {
    return route === undefined ? this.#total : (this.#counts.get(route) ?? 0);
  }

  /** Sets every counter back to 0. */
  resetCounts(): void {
    this.#counts.clear();
    this.#total = 0;
  }

  /**
   * The `onRequest` step: counts the request, then applies the first rule that hits. Returns
   * whether the request should go on to be served.
   */
  async apply(route: RouteName | undefined, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    this.#total++;
    if (route !== undefined) this.#counts.set(route, (this.#counts.get(route) ?? 0) + 1);
    const rule = this.#pick(route);
    if (rule === undefined) return true;
    if (rule.latencyMs !== undefined && rule.latencyMs > 0)
      await delay(rule.latencyMs, undefined, { ref: false });
    if (rule.hang === true) {
      this.#hang(request, reply);
      return false;
    }
    if (rule.reset === true) {
      void reply.hijack();
      const socket = request.raw.socket;
      // A TCP RST where supported, so the client sees a reset rather than a clean close.
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
      return false;
    }
    if (rule.status !== undefined) {
      if (rule.retryAfter !== undefined) void reply.header('retry-after', String(rule.retryAfter));
      void reply.code(rule.status).send({ success: false, message: `Injected fault: status ${rule.status}` });
      return false;
    }
    return true;
  }

  /** Destroys the sockets of hanging requests. */
  releaseHung(): void {
    for (const socket of this.#hung) socket.destroy();
    this.#hung.clear();
  }

  #pick(route: RouteName | undefined): FaultRule | undefined {
    for (const rule of this.#rules) {
      if (rule.route !== undefined && rule.route !== route) continue;
      // Draw for every matching rule, so which requests are hit depends only on the seed and order.
      if (this.#random() < (rule.rate ?? 1)) return rule;
    }
    return undefined;
  }

  #hang(request: FastifyRequest, reply: FastifyReply): void {
    void reply.hijack();
    const socket = request.raw.socket;
    // Injected requests have no real socket; they just never resolve.
    if (socket === null || socket === undefined) return;
    this.#hung.add(socket);
    socket.once('close', () => this.#hung.delete(socket));
  }
}
