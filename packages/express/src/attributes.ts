/**
 * Attribute and baggage names this package writes. They follow the OpenTelemetry semantic
 * conventions (HTTP, GenAI, session, user, deployment), which is what `@aqm/otel` reads back.
 */
export const ATTR_SESSION_ID = 'session.id';
export const ATTR_USER_ID = 'user.id';
export const ATTR_DEPLOYMENT_ENVIRONMENT = 'deployment.environment.name';
export const ATTR_SERVICE_VERSION = 'service.version';

export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_ERROR_TYPE = 'error.type';

export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const ATTR_GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
/** The operation of a request whose prompt and response the middleware captured. */
export const OPERATION_INVOKE_WORKFLOW = 'invoke_workflow';

/** Set to `true` when a captured text was cut at `maxCaptureBytes`. */
export const ATTR_CAPTURE_TRUNCATED = 'aqm.capture.truncated';
