/**
 * The version of `@aqm/auto`, reported as the version of its instrumentation scope. Kept equal to
 * package.json by a unit test (reading package.json at run time would break the bundled builds).
 */
export const AUTO_VERSION = '0.1.0';
