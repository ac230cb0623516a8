import { applicationHandlers } from './applications.js';
import { catalogHandlers } from './catalogs.js';
import type { ServiceContext } from './context.js';
import { evaluationHandlers } from './evaluations.js';
import { guardrailHandlers } from './guardrails.js';
import { monitoringHandlers } from './monitoring.js';
import type { RouteHandlers } from './route-types.js';
import { traceHandlers } from './traces.js';
import { widgetHandlers } from './widgets.js';

/** Every route's handler, one resource file each; the type makes a forgotten route a compile error. */
export function allHandlers(ctx: ServiceContext): RouteHandlers {
  return {
    ...applicationHandlers(ctx),
    ...monitoringHandlers(ctx),
    ...guardrailHandlers(ctx),
    ...traceHandlers(ctx),
    ...evaluationHandlers(ctx),
    ...widgetHandlers(ctx),
    ...catalogHandlers(),
  };
}
