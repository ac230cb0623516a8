import type { Trace } from '@aqm/wire';
import { notFound } from '../errors.js';
import type { EvaluationResultsRepository } from '../store/evaluation-results-repository.js';
import type { StoredTrace } from '../store/traces-repository.js';
import { requireApplication, type ServiceContext } from './context.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of an application's traces. */
export function traceHandlers(ctx: ServiceContext): Pick<RouteHandlers, 'traces.list' | 'traces.get'> {
  const { traces, evaluationResults } = ctx.store;
  return {
    'traces.list': ({ projectId, params, query }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      return traces.list(app.id, query);
    },
    'traces.get': ({ projectId, params }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      const stored = traces.find(app.id, params.traceId);
      if (stored === undefined) throw notFound(`Trace ${params.traceId}`);
      return toTrace(stored, evaluationResults);
    },
  };
}

/** The single read: the spec's fields, the stored submission and the trace's evaluation results. */
function toTrace(stored: StoredTrace, results: EvaluationResultsRepository): Trace {
  const { spans = [], ...submitted } = stored.trace;
  return {
    ...submitted,
    applicationId: stored.applicationId,
    spanCount: spans.length,
    spans,
    evaluationResults: results.forTrace(stored.applicationId, submitted.traceId),
  };
}
