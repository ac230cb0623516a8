#!/usr/bin/env node
import { maskPII } from '@aqm/otel';
import { debugSource } from '@aqm/otel/pipeline';
import { visibleControls } from '@aqm/wire';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { CliUsageError, parseCliArgs, USAGE } from './cli-args.js';
import { MissingSettingsError, missingSettings, missingSettingsMessage } from './cli-missing.js';
import { type RunningForwarder, startForwarder } from './start-forwarder.js';
import { stderrDiagLogger } from './stderr-diag-logger.js';

/**
 * `aqm-forwarder`: starts the forwarder, prints one line with its address, and on SIGTERM/SIGINT
 * stops accepting, delivers what it holds (within the shutdown timeout) and exits.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const command = parseCliArgs(argv.filter((arg) => arg !== '--mask-pii'));
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  // Every missing setting at once, in the terms of the command line; `startForwarder` would stop at
  // the first and name it as an option of code.
  const missing = missingSettings(command.options, process.env);
  if (missing.length > 0) throw new MissingSettingsError(missingSettingsMessage(missing));
  // Warnings and errors of the pipeline (a refused key, an unknown application, drops) reach
  // stderr without any logging set up, with the control characters of quoted text made visible.
  // --debug, AQM_DEBUG=1 or OTEL_LOG_LEVEL=debug: the debug lines too (startForwarder reads the
  // variables for its own and its pipelines' lines).
  const debug = command.options.debug === true || debugSource(process.env) !== undefined;
  diag.setLogger(stderrDiagLogger(), {
    logLevel: debug ? DiagLogLevel.DEBUG : DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
  const options = argv.includes('--mask-pii') ? { ...command.options, mask: maskPII } : command.options;
  const starting = startForwarder(options);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`aqm-forwarder: received ${signal}, delivering what is held, then exiting.\n`);
    starting
      .then((forwarder) => forwarder.close().then(() => forwarder))
      .then(
        (forwarder) => {
          const { exportedTraces, droppedTraces } = forwarder.stats().pipeline;
          process.stdout.write(
            `aqm-forwarder: stopped (${exportedTraces} traces delivered, ${droppedTraces.total} dropped).\n`,
          );
          process.exit(0);
        },
        () => process.exit(1),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const forwarder: RunningForwarder = await starting;
  // One write: a reader of the first line gets the HTTP address, as before gRPC.
  const grpcLine =
    forwarder.grpcUrl === undefined
      ? ''
      : `aqm-forwarder OTLP/gRPC on ${forwarder.grpcUrl} (TraceService/Export, LogsService/Export)\n`;
  process.stdout.write(
    `aqm-forwarder listening on ${forwarder.url} (OTLP/HTTP: ${forwarder.url}/v1/traces, ${forwarder.url}/v1/logs)\n${grpcLine}`,
  );
}

main().catch((error: unknown) => {
  const usage =
    error instanceof CliUsageError || error instanceof MissingSettingsError
      ? '\nRun aqm-forwarder --help for the options.'
      : '';
  // The message can quote the service (the body of a refused application lookup): shown, not obeyed.
  process.stderr.write(`aqm-forwarder: ${visibleControls((error as Error).message)}${usage}\n`);
  process.exit(error instanceof CliUsageError ? 2 : 1);
});
