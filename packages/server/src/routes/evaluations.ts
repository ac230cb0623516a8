import { submitTraces } from '../evaluation-pipeline.js';
import { requireApplication, type ServiceContext } from './context.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of trace submission and the evaluation results list. */
export function evaluationHandlers(
  ctx: ServiceContext,
): Pick<RouteHandlers, 'evaluations.submit' | 'evaluations.list'> {
  return {
    'evaluations.submit': ({ projectId, params, body }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      const traceIds = submitTraces(ctx.store, app, body.traces, ctx.now());
      return { accepted: traceIds.length, traceIds };
    },
    'evaluations.list': ({ projectId, params, query }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      return ctx.store.evaluationResults.list(app.id, query);
    },
  };
}
