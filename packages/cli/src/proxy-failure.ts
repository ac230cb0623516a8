import type { AqmConnectionError, ProxySetting } from '@aqm/client';

/** The status a proxy answered a CONNECT with, as undici words it (`Proxy response (407) !== 200 …`). */
const PROXY_STATUS = /Proxy response \((\d{3})\)/;

/**
 * Says what went wrong when a connection error was the proxy's (`HTTPS_PROXY` / `HTTP_PROXY`)
 * rather than the service's: the proxy refused the tunnel with a status (407: it wants other
 * credentials), or could not be reached at its own address. `undefined` when the error does not
 * point at the proxy (then the service is blamed as usual). The proxy is shown without credentials.
 */
export function describeProxyFailure(
  err: AqmConnectionError,
  proxy: ProxySetting | undefined,
  code: string,
): string | undefined {
  if (proxy === undefined) return undefined;
  const which = `the proxy in ${proxy.variable} (${proxy.shown})`;
  const status = PROXY_STATUS.exec(err.message)?.[1];
  if (status === '407') {
    return `${capitalized(which)} asks for credentials (407). Check the user and password in ${proxy.variable}.`;
  }
  if (status !== undefined) {
    return `${capitalized(which)} would not connect to the service (${status}). Check ${proxy.variable} and NO_PROXY, and --base-url or AQM_BASE_URL.`;
  }
  const { host } = new URL(proxy.shown);
  if (err.message.includes(host) || err.message.includes(host.replace(/^localhost:/, '127.0.0.1:'))) {
    return `Could not reach ${which} (${code}). Check ${proxy.variable} and NO_PROXY, and that the proxy is running.`;
  }
  return undefined;
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
