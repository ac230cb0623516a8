/**
 * Typed client for every endpoint of the AQM (Application Quality Monitoring and Guardrails)
 * service: retries with backoff, auto-paging iterators and one error class per outcome.
 * @packageDocumentation
 */

// The wire types the methods take and return, so callers need not depend on @aqm/wire.
export type {
  Application,
  ApplicationDetail,
  CreateApplicationBody,
  EvalMetric,
  EvaluationResult,
  FieldError,
  GuardrailEvaluation,
  GuardrailEvaluationPage,
  GuardrailEvaluationSummary,
  GuardrailsConfig,
  MonitoringConfig,
  Page,
  Pagination,
  SecurityCatalog,
  SubmitEvaluationsResult,
  Trace,
  TraceSummary,
  UpdateApplicationBody,
  UpdatedApplication,
  UpdateGuardrailsBody,
  UpdateMonitoringBody,
  ValidatorCatalogEntry,
  Widget,
  WidgetDataItem,
} from '@aqm/wire';
export {
  ApplicationByName,
  type ApplicationByNameEvents,
  applicationLookupStep,
  isTransientLookupFailure,
} from './application-by-name.js';
export { applicationRoutesMissing } from './application-routes.js';
export { normalizeBaseUrl } from './base-url.js';
export { AqmClient } from './client.js';
export type { DateInput } from './dates.js';
export { createEnvDispatcher } from './env-proxy.js';
export { errorFromResponse, type ResponseHeaders } from './error-factory.js';
export {
  AqmApiError,
  AqmAuthenticationError,
  AqmConflictError,
  AqmConnectionError,
  AqmError,
  type AqmErrorDetails,
  AqmInputError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmTimeoutError,
  AqmValidationError,
} from './errors.js';
export {
  ApplicationFindOrCreateError,
  type ApplicationsFinder,
  findOrCreateApplication,
} from './find-or-create-application.js';
export type { AqmClientOptions, RequestOptions } from './options.js';
export { type ProxyEnvironment, type ProxySetting, readProxyEnvironment } from './proxy-environment.js';
export { redactSecretInText } from './redact.js';
export { ApplicationsResource } from './resources/applications.js';
export { EvaluationsResource } from './resources/evaluations.js';
export { GuardrailEvaluationsResource } from './resources/guardrail-evaluations.js';
export { GuardrailsResource } from './resources/guardrails.js';
export { MetricsResource } from './resources/metrics.js';
export { MonitoringResource } from './resources/monitoring.js';
export { TracesResource } from './resources/traces.js';
export { WidgetsResource } from './resources/widgets.js';
export type {
  ApplicationListParams,
  EvaluationListParams,
  EvaluationTraceInput,
  GuardrailEvaluationListParams,
  PageParams,
  SpanEventInput,
  SpanInput,
  SubmitEvaluationsParams,
  TraceListParams,
  WidgetDataParams,
} from './types.js';
export { CLIENT_VERSION } from './version.js';
