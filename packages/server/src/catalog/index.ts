/**
 * The catalogs of the local service (eval metrics, security plugins, guardrail validators)
 * and the checks of monitoring and guardrails configurations against them.
 * @packageDocumentation
 */
export { checkMetrics } from './check-metrics.js';
export { checkPlugins } from './check-plugins.js';
export { checkValidators, type ValidatorField } from './check-validators.js';
export { evalMetricCatalog } from './eval-metrics.js';
export { securityPluginCatalog } from './security-plugins.js';
export { validatorCatalog } from './validators.js';
