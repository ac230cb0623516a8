import { describeValue } from './checks.js';

const SHOWN_URL_CHARS = 80;

/**
 * A rejected base URL as an error may show it: never its credentials (`user:password@`), query
 * string or fragment, which is where keys and tokens get put, whether or not it parses as a URL.
 * @example
 * ```ts
 * describeUrl('http://u:p@127.0.0.1/api?token=abc'); // '"http://127.0.0.1/api" (credentials and query string not shown)'
 * ```
 */
export function describeUrl(value: string): string {
  let shown = value;
  const query = shown.search(/[?#]/);
  if (query >= 0) shown = shown.slice(0, query);
  const scheme = shown.indexOf('//');
  const authority = scheme < 0 ? 0 : scheme + 2;
  const slash = shown.indexOf('/', authority);
  const at = shown.lastIndexOf('@', (slash < 0 ? shown.length : slash) - 1);
  const credentials = at >= authority;
  if (credentials) shown = shown.slice(0, authority) + shown.slice(at + 1);
  const hidden = [credentials ? 'credentials' : '', query >= 0 ? 'query string' : ''].filter(Boolean);
  const text =
    shown.length > SHOWN_URL_CHARS
      ? `${JSON.stringify(shown.slice(0, SHOWN_URL_CHARS))}…`
      : JSON.stringify(shown);
  return hidden.length === 0 ? text : `${text} (${hidden.join(' and ')} not shown)`;
}

/** Hosts that plain `http:` may reach without `allowInsecureHttp`: the key never leaves the machine. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Checks and normalises the spec's `{base_url}` (which includes its path prefix): http(s) only,
 * no credentials, query or fragment; plain http only to loopback unless `allowInsecureHttp`.
 * Trailing slashes are dropped so paths can be appended as they are. Exported so that packages
 * reading a base URL from the environment can refuse it up front, with the client's own rules.
 * @throws TypeError saying what is wrong, the URL shown without credentials, query or fragment.
 * @example
 * ```ts
 * normalizeBaseUrl('http://127.0.0.1:4000/api/', false); // 'http://127.0.0.1:4000/api'
 * normalizeBaseUrl('http://aqm:4000/api', false); // throws: plain http to a non-loopback host
 * ```
 */
export function normalizeBaseUrl(value: unknown, allowInsecureHttp: boolean): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`baseUrl must be an http(s) URL string, got ${describeValue(value)}`);
  }
  const shown = describeUrl(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${shown}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http: or https:, got ${shown}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(`baseUrl must not contain credentials; pass the API key as apiKey, got ${shown}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`baseUrl must not contain a query string or fragment, got ${shown}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new TypeError(
      `baseUrl uses plain http to a non-loopback host (${url.hostname}), which would send the API key unencrypted; ` +
        `use https, or set allowInsecureHttp: true, got ${shown}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
