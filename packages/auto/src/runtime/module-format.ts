/**
 * The module format this copy of `@aqm/auto` was loaded as. The CommonJS build's
 * `import.meta.url` (a tsup shim) is its own `.cjs` file; the ESM build and the sources are not.
 * It decides which copy of LangChain gets the global handler: LangChain keeps its configure hooks
 * per module copy, so an ESM app needs the ESM copy and a CommonJS app the CommonJS one.
 */
export const MODULE_FORMAT: 'esm' | 'cjs' = import.meta.url.endsWith('.cjs') ? 'cjs' : 'esm';
