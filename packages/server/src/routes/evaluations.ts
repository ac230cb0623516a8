import { latestTraces, storeProcessed } from '../evaluation-pipeline.js';
import { requireApplication, type ServiceContext } from './context.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of trace submission and the evaluation results list. */
export function evaluationHandlers(
  ctx: ServiceContext,
): Pick<RouteHandlers, 'evaluations.submit' | 'evaluations.list'> {
  return {
    'evaluations.submit': async ({ projectId, params, body }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      // Scored off the event loop (a worker), then stored in chunks in the project's turns: a
      // repeated traceId keeps its last trace, and a stored one is replaced with its old results and records.
      const processed = await ctx.scoring.score(projectId, {
        config: { metrics: app.monitoring.metrics, guardrails: app.guardrails },
        traces: latestTraces(body.traces),
        now: ctx.now(),
      });
      const traceIds = await storeProcessed(ctx.store, ctx.turns, projectId, app.id, processed);
      return { accepted: traceIds.length, traceIds };
    },
    'evaluations.list': ({ projectId, params, query }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      return ctx.store.evaluationResults.list(app.id, query);
    },
  };
}
