import { describeApiKey, describeUrl } from '@aqm/otel/pipeline';
import { printableLine } from '@aqm/wire';
import type { ResolvedForwarderOptions } from './resolve-options.js';

/** Where one debug line goes (the forwarder's `diag` logger at debug). */
export type ForwarderDebugSink = (line: string) => void;

/** What became of one destination's share of a request. */
export type GroupOutcome = { admitted: true } | { admitted: false; reason: string };

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The forwarder's own debug lines (`--debug`, `AQM_DEBUG=1`, `OTEL_LOG_LEVEL=debug`): its
 * configuration once at start (key and tokens redacted), and per request what was received, for
 * which application, and whether it was admitted or refused. The pipelines behind it print their
 * own (each trace sent or skipped, each drop, each disk write and replay). Lines are made
 * printable here: application names and reasons can come from senders.
 */
export class ForwarderDebug {
  readonly #sink: ForwarderDebugSink;

  constructor(sink: ForwarderDebugSink) {
    this.#sink = sink;
  }

  line(text: string): void {
    try {
      this.#sink(printableLine(text));
    } catch {
      // A logger that throws must not fail a request.
    }
  }

  config(resolved: ResolvedForwarderOptions, url: string, grpcUrl?: string): void {
    const application =
      resolved.defaultApplication === undefined
        ? '(none)'
        : 'id' in resolved.defaultApplication
          ? resolved.defaultApplication.id
          : `named "${cut(resolved.defaultApplication.name, 80)}"`;
    const tokens = resolved.ingestTokens.length;
    const parts = [
      `listening on ${url}`,
      `endpoint=${describeUrl(resolved.baseUrl)}`,
      `apiKey=${describeApiKey(resolved.apiKey)}`,
      `application=${application}`,
      `applicationFromResource=${resolved.applicationFromResource}`,
      `createApplications=${resolved.createApplications}`,
      `maxApplications=${resolved.maxApplications}`,
      `ingestTokens=${tokens === 0 ? 'none' : `${tokens} set (redacted)`}`,
      `maxBodyBytes=${resolved.maxBodyBytes}`,
      `maxBodyBytesInFlight=${resolved.maxBodyBytesInFlight}`,
      `receiveTimeoutMs=${resolved.receiveTimeoutMs}`,
      `rootGraceMs=${resolved.rootGraceMs}`,
      `maxTotalQueueBytes=${resolved.maxTotalQueueBytes ?? 'twice maxQueueBytes'}`,
      `grpc=${grpcUrl === undefined ? 'off' : `${grpcUrl}${resolved.grpc?.tls?.caFile === undefined ? '' : ' (client certificates required)'}`}`,
    ];
    this.line(`config: forwarder ${parts.join(' ')}`);
  }

  /** One destination's share of a request: its items and traces, and whether it was taken. */
  group(what: string, items: number, traces: number, application: string, outcome: GroupOutcome): void {
    const verdict = outcome.admitted ? 'admitted' : `refused (${cut(outcome.reason, 200)})`;
    this.line(
      `${items} ${what}(s) of ${traces} trace(s) for application ${cut(application, 120)}: ${verdict}`,
    );
  }

  /** A whole request: what came, and what the answer says. */
  request(
    route: string,
    what: string,
    received: number,
    bodyBytes: number,
    result: { accepted: number; rejected: number; errorMessage: string; retryLater: boolean },
  ): void {
    const answer = result.retryLater
      ? `answered ${route.startsWith('gRPC') ? 'UNAVAILABLE' : '503'} (retry later)`
      : `${result.accepted} accepted, ${result.rejected} rejected`;
    const why = result.errorMessage === '' ? '' : `: ${cut(result.errorMessage, 300)}`;
    this.line(`${route}: received ${received} ${what}(s), ${bodyBytes} bytes; ${answer}${why}`);
  }
}
