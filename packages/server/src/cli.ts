#!/usr/bin/env node
import { type CliApplication, ensureApplication } from './cli-application.js';
import { CliUsageError, parseCliArgs, USAGE } from './cli-args.js';
import { describeStartError } from './cli-start-error.js';
import { type RunningServer, startServer } from './start-server.js';

/** `aqm-server`: starts the local service, prints where it listens, stops cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // `aqm-server | head` closes the pipe early: a failed write (EPIPE) must not kill the server
  // before it closes its database; it keeps serving, and stops cleanly on a signal.
  process.stdout.on('error', ignoreStreamError);
  process.stderr.on('error', ignoreStreamError);
  const command = parseCliArgs(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  // Handlers go in before anything is printed: whoever reads the output may signal at once.
  // A failure to start names the flag behind it; it stays exit 1 (the values passed the flag checks).
  const starting = startServer(command.options).catch((error: unknown) => {
    throw new Error(describeStartError(error, command.options), { cause: error });
  });
  const stop = (signal: NodeJS.Signals) => {
    process.stdout.write(`Received ${signal}, closing.\n`);
    starting
      .then((srv) => srv.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`aqm-server: error while closing: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const srv = await starting;
  const firstKey = command.options.apiKeys?.[0];
  const application =
    command.application === undefined || firstKey === undefined
      ? undefined
      : await ensureApplication(srv.url, firstKey.key, command.application);
  printReady(srv, command.generatedKey, application);
}

function ignoreStreamError(): void {
  // Output is informational only; the service does not depend on anyone reading it.
}

/**
 * What the next step needs comes last, as lines to paste: the base URL, the generated key and the
 * application id, so they stay in view on a terminal whatever was printed before.
 */
function printReady(
  srv: RunningServer,
  generatedKey: { key: string; projectId: string } | undefined,
  application: CliApplication | undefined,
): void {
  const storage = srv.storage === ':memory:' ? 'in memory' : srv.storage;
  const lines = [`AQM local service listening on ${srv.url} (storage: ${storage}). Press Ctrl-C to stop.`];
  if (generatedKey !== undefined) {
    lines.push(`No --api-key given: generated a development key for project "${generatedKey.projectId}".`);
  }
  if (application !== undefined) {
    lines.push(`${application.created ? 'Created' : 'Found'} the application "${application.name}".`);
  } else {
    lines.push('No --application given: make one with `aqm apps create NAME`, its id is AQM_APPLICATION_ID.');
  }
  if (generatedKey === undefined) lines.push('AQM_API_KEY is the key you passed with --api-key.');
  lines.push('Paste these lines in the terminal of the next step:');
  lines.push(`export AQM_BASE_URL=${srv.url}`);
  // The one place a key is printed: a random key made for this local run, useless elsewhere.
  if (generatedKey !== undefined) lines.push(`export AQM_API_KEY=${generatedKey.key}`);
  if (application !== undefined) lines.push(`export AQM_APPLICATION_ID=${application.id}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  const usage = error instanceof CliUsageError ? '\nRun aqm-server --help for the options.' : '';
  process.stderr.write(`aqm-server: ${(error as Error).message}${usage}\n`);
  process.exit(error instanceof CliUsageError ? 2 : 1);
});
