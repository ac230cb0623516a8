import type { MonitoringConfig, SecurityConfig, UpdateMonitoringBody } from '@aqm/wire';
import { checkMetrics, checkPlugins } from '../catalog/index.js';
import { requireApplication, type ServiceContext, throwIfInvalid } from './context.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of an application's monitoring configuration. */
export function monitoringHandlers(
  ctx: ServiceContext,
): Pick<RouteHandlers, 'monitoring.get' | 'monitoring.update'> {
  return {
    'monitoring.get': ({ projectId, params }) =>
      requireApplication(ctx, projectId, params.applicationId).monitoring,
    'monitoring.update': ({ projectId, params, body }) => {
      throwIfInvalid([
        ...(body.metrics === undefined ? [] : checkMetrics(body.metrics)),
        ...(body.plugins === undefined ? [] : checkPlugins(body.plugins)),
      ]);
      const app = requireApplication(ctx, projectId, params.applicationId);
      const monitoring = mergeMonitoring(app.monitoring, body);
      ctx.store.applications.update(projectId, app.id, { monitoring, updatedAt: ctx.now() });
      return monitoring;
    },
  };
}

/**
 * The spec's update rules: `metrics` and `plugins` given replace the stored ones; `securityConfig`
 * keys given overwrite, omitted keys stay; then `securityPurpose` sets `securityConfig.purpose`
 * (so it wins over `securityConfig.purpose`), and the returned `securityPurpose` always equals it.
 */
export function mergeMonitoring(current: MonitoringConfig, body: UpdateMonitoringBody): MonitoringConfig {
  const securityConfig: SecurityConfig = { ...current.securityConfig };
  for (const [key, value] of Object.entries(body.securityConfig ?? {})) {
    if (value !== undefined) securityConfig[key as keyof SecurityConfig] = value;
  }
  if (body.securityPurpose !== undefined) securityConfig.purpose = body.securityPurpose;
  return {
    metrics: body.metrics ?? current.metrics,
    plugins: body.plugins ?? current.plugins,
    securityPurpose: securityConfig.purpose ?? '',
    securityConfig,
  };
}
