/**
 * The version of `@aqm/cli`, printed by `aqm --version`. Kept equal to package.json by a unit
 * test (reading package.json at run time would break the bundled CJS/ESM builds).
 */
export const CLI_VERSION = '0.1.0';
