import { describeUrl } from './base-url.js';

/** One proxy named by the environment. */
export interface ProxySetting {
  /** The variable it came from, e.g. `HTTPS_PROXY` or `http_proxy`. */
  variable: string;
  /** The proxy URL as undici gets it, credentials included: never print it. */
  url: string;
  /** The URL as messages may show it: without credentials. */
  shown: string;
}

/**
 * The proxies the standard variables name, as undici's `EnvHttpProxyAgent` reads them: the
 * lowercase form first (`http_proxy`, then `HTTP_PROXY`; `https_proxy`, then `HTTPS_PROXY`). An
 * unusable value is left out and described in `problems`, which name the variable and never show
 * the URL's credentials. `NO_PROXY` / `no_proxy` is read by the agent itself, at each request.
 */
export interface ProxyEnvironment {
  /** Proxy of `http:` targets (`http_proxy` / `HTTP_PROXY`), when set and usable. */
  http: ProxySetting | undefined;
  /** Proxy of `https:` targets (`https_proxy` / `HTTPS_PROXY`); undici falls back to `http`. */
  https: ProxySetting | undefined;
  /** One sentence per variable set to something that is not a proxy URL. */
  problems: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable undici would take, and its value (`??`, as undici: an empty lowercase one wins). */
function pick(env: Env, lower: string, upper: string): { name: string; value: string } | undefined {
  const value = env[lower] ?? env[upper];
  if (value === undefined || value.trim() === '') return undefined;
  return { name: env[lower] !== undefined ? lower : upper, value: value.trim() };
}

/** The URL to hand to undici, or the reason it cannot be used. `host:port` means `http://host:port`, as in curl. */
function checkProxyUrl(name: string, value: string): { url: string } | { problem: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const refuse = (why: string) => ({ problem: `${name} ${why}, got ${describeUrl(value)}` });
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return refuse('must be a proxy URL such as http://proxy.example:3128');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse(`must be an http: or https: proxy URL, not ${url.protocol}`);
  }
  if (url.hostname === '') return refuse('must name the proxy host');
  return { url: url.href };
}

function shownProxy(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.origin;
}

/**
 * Reads `HTTPS_PROXY`, `HTTP_PROXY` (and their lowercase forms) from `env` and checks them.
 * Exported so that packages reading their configuration from the environment can refuse a bad
 * proxy up front with their own warning, as they do for `AQM_BASE_URL`.
 * @example
 * ```ts
 * readProxyEnvironment({ HTTPS_PROXY: 'http://user:secret@proxy.corp:3128' }).https;
 * // { variable: 'HTTPS_PROXY', url: 'http://user:secret@proxy.corp:3128/', shown: 'http://proxy.corp:3128' }
 * ```
 */
export function readProxyEnvironment(env: Env = process.env): ProxyEnvironment {
  const problems: string[] = [];
  const read = (lower: string, upper: string): ProxySetting | undefined => {
    const set = pick(env, lower, upper);
    if (set === undefined) return undefined;
    const checked = checkProxyUrl(set.name, set.value);
    if ('url' in checked) return { variable: set.name, url: checked.url, shown: shownProxy(checked.url) };
    problems.push(checked.problem);
    return undefined;
  };
  return { http: read('http_proxy', 'HTTP_PROXY'), https: read('https_proxy', 'HTTPS_PROXY'), problems };
}
