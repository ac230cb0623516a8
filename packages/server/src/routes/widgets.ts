import type { FieldError } from '@aqm/wire';
import { isWidgetId, type WidgetId, widgetCatalog } from '../widgets/catalog.js';
import { computeWidgetData } from '../widgets/compute.js';
import { requireApplication, type ServiceContext, throwIfInvalid } from './context.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of the widget catalog and widget data. */
export function widgetHandlers(ctx: ServiceContext): Pick<RouteHandlers, 'widgets.list' | 'widgets.data'> {
  return {
    'widgets.list': () => widgetCatalog.map((w) => ({ ...w })),
    'widgets.data': ({ projectId, params, body }) => {
      const errors: FieldError[] = [];
      body.types.forEach((type, i) => {
        if (!isWidgetId(type)) {
          errors.push({
            path: `types[${i}]`,
            message: `unknown widget type ${JSON.stringify(type)}; known: ${widgetCatalog.map((w) => w.id).join(', ')}`,
          });
        }
      });
      throwIfInvalid(errors);
      const app = requireApplication(ctx, projectId, params.applicationId);
      return computeWidgetData(ctx.store, app.id, body.types as WidgetId[], body.start, body.end);
    },
  };
}
