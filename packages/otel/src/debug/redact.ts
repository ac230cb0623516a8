/**
 * What the debug lines show of the API key: whether it is set, never any character of it (no
 * prefix either: the service documents no part of a key as safe to show).
 *
 * @example
 * describeApiKey('aqm_live_123'); // 'set (redacted)'
 */
export function describeApiKey(apiKey: string | undefined): string {
  return apiKey === undefined || apiKey === '' ? 'not set' : 'set (redacted)';
}

/**
 * A base URL as the debug lines show it: a user name, password or query string in it (where a
 * proxy's credentials may hide) is replaced by `(redacted)`.
 *
 * @example
 * describeUrl('https://user:pw@aqm.example/api?token=x'); // 'https://(redacted)@aqm.example/api?(redacted)'
 */
export function describeUrl(url: string | undefined): string {
  if (url === undefined || url === '') return 'not set';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  const credentials = parsed.username !== '' || parsed.password !== '' ? '(redacted)@' : '';
  const query = parsed.search === '' ? '' : '?(redacted)';
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${query}`;
}
