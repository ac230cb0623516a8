/**
 * The version of `@aqm/client`, sent in the `user-agent` header. Kept equal to package.json
 * by a unit test (reading package.json at run time would break the bundled CJS/ESM builds).
 */
export const CLIENT_VERSION = '0.1.0';

/** `aqm-js/<version> node/<version>`, with the caller's `userAgent` in front when given. */
export function userAgentHeader(prefix?: string): string {
  const own = `aqm-js/${CLIENT_VERSION} node/${process.versions.node}`;
  return prefix === undefined ? own : `${prefix} ${own}`;
}
