import { AqmClient, createEnvDispatcher, type ProxySetting, readProxyEnvironment } from '@aqm/client';
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { Output } from './render/output.js';
import { resolveServiceConfig, type ServiceConfig } from './service-config.js';

/** The options every command accepts (declared on the program, usable after the command name). */
export interface GlobalFlags {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  json?: boolean | undefined;
  color?: boolean | undefined;
}

/**
 * The state of one `runCli` call: the io, the output style and the client, made when a command
 * first needs it and closed when the call ends.
 */
export class Session {
  readonly io: CliIo;
  readonly #csi: string | undefined;
  #config: ServiceConfig | undefined;
  #client: AqmClient | undefined;
  #dispatcher: ReturnType<typeof createEnvDispatcher> | undefined;
  #proxy: ProxySetting | undefined;
  #output: Output | undefined;

  /** `csi`: what the palette writes for `ESC[` (the screen guard's marker when `io` is guarded). */
  constructor(io: CliIo, csi?: string) {
    this.io = io;
    this.#csi = csi;
  }

  /** The base URL in use, once the client accepted it (for error messages): never credentials or a query. */
  get baseUrl(): string | undefined {
    return this.#client?.baseUrl;
  }

  /** The proxy requests to the base URL go through (`HTTPS_PROXY` / `HTTP_PROXY`), if any. */
  get proxy(): ProxySetting | undefined {
    return this.#proxy;
  }

  /** The API key in use, once known: only to redact it from what is printed. */
  get secret(): string | undefined {
    return this.#config?.apiKey;
  }

  /** The current time, from the io's clock. */
  now(): Date {
    return this.io.now?.() ?? new Date();
  }

  /** The output of the command, styled by its `--json`/`--no-color` flags. */
  output(command: Command): Output {
    if (this.#output === undefined) {
      const flags = command.optsWithGlobals<GlobalFlags>();
      this.#output = new Output(this.io, {
        json: flags.json === true,
        color: flags.color !== false,
        csi: this.#csi,
      });
    }
    return this.#output;
  }

  /** The client, configured from `--api-key`/`--base-url` or `AQM_API_KEY`/`AQM_BASE_URL`. */
  client(command: Command): AqmClient {
    if (this.#client === undefined) {
      const flags = command.optsWithGlobals<GlobalFlags>();
      this.#config = resolveServiceConfig(flags, this.io.env);
      // The proxy variables of the io's environment (the process's, for the bin); a bad one is a
      // configuration error, as a bad AQM_BASE_URL is.
      const proxies = readProxyEnvironment(this.io.env);
      if (proxies.problems.length > 0) throw new TypeError(proxies.problems.join('; '));
      const dispatcher = createEnvDispatcher({ keepAliveTimeout: 10_000 }, this.io.env);
      this.#dispatcher = dispatcher;
      this.#client = new AqmClient({ ...this.#config, userAgent: 'aqm-cli', dispatcher });
      this.#proxy = this.#client.baseUrl.startsWith('https:')
        ? (proxies.https ?? proxies.http)
        : proxies.http;
    }
    return this.#client;
  }

  /** Request options of every call: the io's signal, so Ctrl-C cancels a request in flight. */
  get requestOptions(): { signal?: AbortSignal } {
    return this.io.signal === undefined ? {} : { signal: this.io.signal };
  }

  /** Closes the client's connections, so the process can exit. */
  async close(): Promise<void> {
    await this.#client?.close();
    await this.#dispatcher?.close();
  }
}
