import type { EvalMetric } from '@aqm/client';
import type { Command } from 'commander';
import type { Session } from '../session.js';

/** `aqm metrics eval|security`: the catalogs monitoring draws from. */
export function registerMetricsCommands(program: Command, session: Session): void {
  const metrics = program
    .command('metrics')
    .description('the catalogs of quality metrics and security plugins');

  metrics
    .command('eval')
    .description('list the quality metrics usable as monitoring metrics[].type')
    .action(async (_flags: unknown, command: Command) => {
      const catalog = await session.client(command).metrics.eval(session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(catalog);
      out.table(
        [
          { header: 'NAME', value: (m: EvalMetric) => m.name },
          {
            header: 'OPTIONS',
            value: (m: EvalMetric) => m.additionalFields.map((f) => f.name).join(',') || '-',
          },
          { header: 'DESCRIPTION', value: (m: EvalMetric) => m.description, shrink: true },
        ],
        catalog,
      );
    });

  metrics
    .command('security')
    .description('list the security plugins usable in monitoring plugins, by risk category')
    .action(async (_flags: unknown, command: Command) => {
      const catalog = await session.client(command).metrics.security(session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(catalog);
      const rows = Object.entries(catalog).flatMap(([category, plugins]) =>
        plugins.map((plugin) => ({ category, ...plugin })),
      );
      out.table(
        [
          { header: 'CATEGORY', value: (r: (typeof rows)[number]) => r.category },
          { header: 'PLUGIN', value: (r: (typeof rows)[number]) => r.type },
          { header: 'DESCRIPTION', value: (r: (typeof rows)[number]) => r.description, shrink: true },
        ],
        rows,
      );
    });
}
