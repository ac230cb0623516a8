import { describeValue } from './checks.js';

/** Hosts that plain `http:` may reach without `allowInsecureHttp`: the key never leaves the machine. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks and normalises the spec's `{base_url}` (which includes its path prefix): http(s) only,
 * no credentials, query or fragment; plain http only to loopback unless `allowInsecureHttp`.
 * Trailing slashes are dropped so paths can be appended as they are.
 */
export function normalizeBaseUrl(value: unknown, allowInsecureHttp: boolean): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`baseUrl must be an http(s) URL string, got ${describeValue(value)}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${describeValue(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http: or https:, got ${describeValue(value)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('baseUrl must not contain credentials; pass the API key as apiKey');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`baseUrl must not contain a query string or fragment, got ${describeValue(value)}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new TypeError(
      `baseUrl uses plain http to a non-loopback host (${url.hostname}), which would send the API key unencrypted; ` +
        `use https, or set allowInsecureHttp: true, got ${describeValue(value)}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
