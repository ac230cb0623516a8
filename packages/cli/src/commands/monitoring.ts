import type { MonitoringConfig, UpdateMonitoringBody } from '@aqm/client';
import type { Command } from 'commander';
import { groupPlugins, parseMetricFlag } from '../config-flags.js';
import { collect } from '../flag-parsers.js';
import { readBody, requireObject } from '../read-body.js';
import type { Output } from '../render/output.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';

function printMonitoring(out: Output, config: MonitoringConfig): void {
  out.line(out.palette.bold('Metrics'));
  out.table(
    [
      { header: 'TYPE', value: (m: MonitoringConfig['metrics'][number]) => m.type },
      {
        header: 'OPTIONS',
        value: (m) =>
          Object.entries(m)
            .filter(([key]) => key !== 'type')
            .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
            .join(' ') || '-',
        shrink: true,
      },
    ],
    config.metrics,
    '(no metrics)',
  );
  out.line();
  out.line(out.palette.bold('Security plugins'));
  const plugins = Object.entries(config.plugins).filter(([, ids]) => ids.length > 0);
  if (plugins.length === 0) out.line('(none)');
  for (const [category, ids] of plugins) out.line(`${category}: ${ids.join(', ')}`);
  out.line();
  out.line(out.palette.bold('Security context'));
  const context = Object.entries(config.securityConfig).filter(
    ([, value]) => value !== undefined && value !== '',
  );
  if (context.length === 0) out.line('(none)');
  else out.fields(context.map(([key, value]) => [key, String(value)]));
}

/** `aqm monitoring get|set`. */
export function registerMonitoringCommands(program: Command, session: Session): void {
  const monitoring = program
    .command('monitoring')
    .description('read and set the quality metrics and security plugins');

  monitoring
    .command('get')
    .description("show an application's monitoring configuration")
    .argument('<app-id>', 'the application id')
    .action(async (appId: string, _flags: unknown, command: Command) => {
      const client = session.client(command);
      const out = session.output(command);
      const config = await client.monitoring.get(appId, session.requestOptions);
      if (out.json) return out.printJson(config);
      printMonitoring(out, config);
    });

  monitoring
    .command('set')
    .description('save monitoring settings from a file and/or flags (lists given replace the stored ones)')
    .argument('<app-id>', 'the application id')
    .option('-f, --file <path>', 'a JSON or YAML body of PUT .../monitoring; - reads stdin')
    .option(
      '--metric <type[:k=v,...]>',
      'a metric, e.g. answer_relevance:threshold=0.7 (repeatable)',
      collect,
    )
    .option('--plugin <category:name>', 'a security plugin id, e.g. harmful:hate (repeatable)', collect)
    .option('--purpose <text>', 'what the application does (securityPurpose)')
    .addHelpText(
      'after',
      '\nExamples:\n  aqm monitoring set APP_ID --metric answer_relevance:threshold=0.7 --metric toxicity\n  aqm monitoring set APP_ID --file monitoring.yaml',
    )
    .action(
      async (
        appId: string,
        flags: { file?: string; metric?: string[]; plugin?: string[]; purpose?: string },
        command: Command,
      ) => {
        const body: Record<string, unknown> =
          flags.file === undefined
            ? {}
            : requireObject(await readBody(flags.file, session.io), 'The monitoring file');
        if (flags.metric) {
          const fromFile = Array.isArray(body.metrics) ? body.metrics : [];
          body.metrics = [...fromFile, ...flags.metric.map(parseMetricFlag)];
        }
        if (flags.plugin) body.plugins = groupPlugins(flags.plugin);
        if (flags.purpose !== undefined) body.securityPurpose = flags.purpose;
        if (Object.keys(body).length === 0) {
          throw new CliUsageError('Nothing to set: give --file, --metric, --plugin or --purpose.');
        }
        const client = session.client(command);
        const out = session.output(command);
        const saved = await client.monitoring.update(
          appId,
          body as UpdateMonitoringBody,
          session.requestOptions,
        );
        if (out.json) return out.printJson(saved);
        printMonitoring(out, saved);
        out.note('Saved.');
      },
    );
}
