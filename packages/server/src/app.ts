import { MAX_BODY_BYTES, type RouteName, receiveTimeouts } from '@aqm/wire';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ProjectAdmission } from './admission.js';
import { ApiKeyRing } from './auth.js';
import {
  answerClientError,
  checkBodyCharset,
  checkBodyEncoding,
  handleError,
  handleNotFound,
} from './errors.js';
import { FairTurns } from './fair-turns.js';
import { FaultInjector } from './fault-injector.js';
import { parseJsonBodiesWithReasons } from './json-body.js';
import { type AppOptions, checkAppOptions } from './options.js';
import type { ServiceContext } from './routes/context.js';
import { allHandlers } from './routes/handlers.js';
import { type AqmRouteConfig, registerRoutes } from './routes/register.js';
import { ScoringPool } from './scoring-pool.js';
import { openStore, type Store } from './store/store.js';

/** The app and the handles `startServer` exposes (keys, faults, store). */
export interface Service {
  app: FastifyInstance;
  keys: ApiKeyRing;
  faults: FaultInjector;
  store: Store;
  prefix: string;
}

/** Node refuses request heads over 16 KiB by default, so no path parameter is longer than this. */
const MAX_PARAM_CHARS = 64 * 1024;

/** Builds the service: checks the options, opens the store, wires hooks, handlers and errors. */
export function createService(options: AppOptions): Service {
  const checked = checkAppOptions(options);
  const store = openStore({ dataDir: checked.dataDir });
  const keys = new ApiKeyRing(checked.apiKeys);
  const faults = new FaultInjector(checked.faults);
  const admission = new ProjectAdmission(checked.maxRequestsInProgress);
  const turns = new FairTurns();
  const app = Fastify({
    logger: checked.logger,
    bodyLimit: MAX_BODY_BYTES,
    // close() must not wait for keep-alive sockets or for requests a fault left hanging.
    forceCloseConnections: true,
    // Longer than any URL Node accepts, so a long path parameter reaches the validation that names it.
    routerOptions: { maxParamLength: MAX_PARAM_CHARS },
    // A badly percent-encoded URL is answered by fastify itself unless it is routed here: the envelope.
    frameworkErrors: handleError,
    // What Node's parser refuses (431 headers too large, ...) is answered with the envelope too.
    clientErrorHandler: answerClientError,
    // fastify's default (0) lets a client hold a socket forever by never finishing its body
    // (slowloris); Node answers 408 past this (through answerClientError), checking every second.
    ...receiveTimeouts(checked.requestTimeoutMs),
  });
  app.setErrorHandler(handleError);
  parseJsonBodiesWithReasons(
    app,
    turns,
    (request) => keys.findProject(request),
    (request, work) => admission.holdWhile(request, work),
  );
  app.setNotFoundHandler(handleNotFound);
  // Faults come first (they play the network and the infrastructure in front of the service), then
  // the key, then the project's share of the requests in progress (before the body is read).
  app.addHook('onRequest', async (request, reply) => {
    if (!(await faults.apply(routeNameOf(request), request, reply))) return reply;
    if (!keys.authenticate(request, reply)) return reply;
    if (!admission.admit(keys.projectOf(request), request, reply)) return reply;
  });
  app.addHook('preParsing', async (request) => {
    checkBodyCharset(request);
    checkBodyEncoding(request);
  });
  app.addHook('preClose', (done) => {
    faults.releaseHung();
    done();
  });
  const scoring = new ScoringPool();
  app.addHook('onClose', async () => {
    await scoring.close();
    store.close();
  });
  const ctx: ServiceContext = {
    store,
    prefix: checked.prefix,
    now: () => new Date().toISOString(),
    scoring,
    turns,
  };
  void app.register(
    async (scope) => {
      registerRoutes(scope, allHandlers(ctx), {
        projectOf: (request) => keys.projectOf(request),
        turns,
        holdWhile: (request, work) => admission.holdWhile(request, work),
      });
    },
    { prefix: checked.prefix },
  );
  return { app, keys, faults, store, prefix: checked.prefix };
}

/**
 * The service as a fastify instance, not listening: every route of the interface under the
 * prefix, for `app.inject(...)` in tests or to `listen` yourself. Closing the app closes the store.
 * @example
 * ```ts
 * const app = buildApp({ apiKeys: [{ key: 'k', projectId: 'p' }] });
 * const res = await app.inject({ method: 'GET', url: '/api/metrics/eval', headers: { 'x-api-key': 'k' } });
 * await app.close();
 * ```
 */
export function buildApp(options: AppOptions): FastifyInstance {
  return createService(options).app;
}

function routeNameOf(request: FastifyRequest): RouteName | undefined {
  return (request.routeOptions.config as Partial<AqmRouteConfig>).routeName;
}
