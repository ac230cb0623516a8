/**
 * The version of `@aqm/express`, given to the tracer it creates. Kept equal to package.json by a
 * unit test (reading package.json at run time would break the bundled CJS/ESM builds).
 */
export const EXPRESS_PACKAGE_VERSION = '0.1.0';

/** The instrumentation scope name of the spans this package starts. */
export const EXPRESS_PACKAGE_NAME = '@aqm/express';
