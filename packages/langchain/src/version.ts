/**
 * The version of `@aqm/langchain`, reported as the tracer's version. Kept equal to package.json
 * by a unit test (reading package.json at run time would break the bundled CJS/ESM builds).
 */
export const LANGCHAIN_HANDLER_VERSION = '0.1.0';
