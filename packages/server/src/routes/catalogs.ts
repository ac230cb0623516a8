import { evalMetricCatalog, securityPluginCatalog } from '../catalog/index.js';
import type { RouteHandlers } from './route-types.js';

/** Handlers of the metric catalogs (the validator catalog is with the guardrails, the widget one with widgets). */
export function catalogHandlers(): Pick<RouteHandlers, 'metrics.eval' | 'metrics.security'> {
  return {
    'metrics.eval': () => evalMetricCatalog,
    'metrics.security': () => securityPluginCatalog,
  };
}
