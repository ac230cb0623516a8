import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { readProxyEnvironment } from './proxy-environment.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Problems already said in this process: a client per request must not repeat the line. */
const said = new Set<string>();

function warnOnce(problem: string): void {
  if (said.has(problem)) return;
  said.add(problem);
  // A warning, not a throw: the app goes on, its requests go out without the proxy.
  process.emitWarning(`@aqm/client: ${problem}; that proxy is not used, requests go out directly`, {
    code: 'AQM_PROXY_ENV',
  });
}

/**
 * The dispatcher a client uses when none is passed: a plain keep-alive `Agent`, or, when
 * `HTTP_PROXY` / `HTTPS_PROXY` (or lowercase) is set, undici's `EnvHttpProxyAgent`, which sends
 * through the proxy (a CONNECT tunnel, for `http:` targets too) and honours `NO_PROXY` (host
 * names, `.suffix`, `host:port`, `*`). `agentOptions` go to every agent it makes (e.g. a
 * `connect` function). A variable set to something unusable gives one warning naming it, and
 * that proxy is not used.
 * @example
 * ```ts
 * const dispatcher = createEnvDispatcher({ keepAliveTimeout: 10_000 });
 * ```
 */
export function createEnvDispatcher(
  agentOptions: EnvHttpProxyAgent.Options = {},
  env: Env = process.env,
): Dispatcher {
  const proxy = readProxyEnvironment(env);
  for (const problem of proxy.problems) warnOnce(problem);
  if (proxy.http === undefined && proxy.https === undefined) return new Agent(agentOptions);
  // Empty strings, not undefined: undici would otherwise read the variables again, bad ones included.
  return new EnvHttpProxyAgent({
    ...agentOptions,
    httpProxy: proxy.http?.url ?? '',
    httpsProxy: proxy.https?.url ?? '',
  });
}
