/**
 * LangChain.js callback handler that turns chains, chat models, LLMs, tools, retrievers and
 * agents into OpenTelemetry spans with GenAI attributes, ready for `@aqm/otel`.
 * @packageDocumentation
 */
export { ATTR, OPERATION, type OperationName } from './attributes.js';
export { clearGlobalAqmHandler, setGlobalAqmHandler } from './global.js';
export { AqmCallbackHandler } from './handler.js';
export type { AqmCallbackHandlerOptions } from './options.js';
export { LANGCHAIN_HANDLER_VERSION } from './version.js';
