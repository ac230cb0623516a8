import type { Application } from '@aqm/client';
import type { Command } from 'commander';
import { addListOptions } from '../list-options.js';
import { collectList, type ListFlags } from '../list-paging.js';
import { formatLocalTime } from '../render/local-time.js';
import type { Column } from '../render/table.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';

const APP_COLUMNS: Column<Application>[] = [
  { header: 'ID', value: (a) => a.id },
  { header: 'NAME', value: (a) => a.name, shrink: true },
  { header: 'DESCRIPTION', value: (a) => a.description, shrink: true },
  { header: 'CREATED', value: (a) => formatLocalTime(a.createdAt) },
];

/** `aqm apps list|create|get|update`. */
export function registerAppsCommands(program: Command, session: Session): void {
  const apps = program.command('apps').description('list, create, read and rename applications');

  addListOptions(
    apps
      .command('list')
      .description('list the applications of the project, newest first')
      .option('--search <text>', 'only names containing this text (case-insensitive)'),
  ).action(async (flags: ListFlags & { search?: string }, command: Command) => {
    const client = session.client(command);
    const out = session.output(command);
    const list = await collectList(flags, async (page, limit) => {
      const result = await client.applications.list(
        { page, limit, search: flags.search },
        session.requestOptions,
      );
      return { items: result.data, total: result.pagination.total };
    });
    if (out.json) return out.printJson(list.items);
    out.table(APP_COLUMNS, list.items, 'No applications.');
    if (list.hint) out.note(list.hint);
  });

  apps
    .command('create')
    .description('register an application; prints its id')
    .argument('<name>', 'the name, unique within the project')
    .option('--description <text>', 'a description')
    .action(async (name: string, flags: { description?: string }, command: Command) => {
      const client = session.client(command);
      const out = session.output(command);
      const app = await client.applications.create(
        { name, ...(flags.description !== undefined && { description: flags.description }) },
        session.requestOptions,
      );
      if (out.json) return out.printJson(app);
      out.line(app.id);
      out.note(`Created application "${app.name}".`);
    });

  apps
    .command('get')
    .description('show an application with its monitoring and guardrails')
    .argument('<app-id>', 'the application id')
    .action(async (appId: string, _flags: unknown, command: Command) => {
      const client = session.client(command);
      const out = session.output(command);
      const app = await client.applications.get(appId, session.requestOptions);
      if (out.json) return out.printJson(app);
      const metrics = app.monitoring.metrics.map((m) =>
        m.threshold === undefined ? m.type : `${m.type} (threshold ${m.threshold})`,
      );
      const validators = (list: { type: string; on_fail: string }[]) =>
        list.length === 0 ? '-' : list.map((v) => `${v.type}:${v.on_fail}`).join(', ');
      out.fields([
        ['id', app.id],
        ['name', app.name],
        ['description', app.description || '-'],
        ['created', formatLocalTime(app.createdAt)],
        ['updated', formatLocalTime(app.updatedAt)],
        ['metrics', metrics.length === 0 ? '-' : metrics.join(', ')],
        ['plugins', Object.values(app.monitoring.plugins).flat().join(', ') || '-'],
        ['security purpose', app.monitoring.securityPurpose || '-'],
        ['guardrails', app.guardrails.enable_guard_rails ? out.palette.green('enabled') : 'disabled'],
        ['input validators', validators(app.guardrails.input_validators)],
        ['output validators', validators(app.guardrails.output_validators)],
      ]);
    });

  apps
    .command('update')
    .description('rename an application or change its description')
    .argument('<app-id>', 'the application id')
    .option('--name <name>', 'the new name (unique within the project)')
    .option('--description <text>', 'the new description')
    .action(async (appId: string, flags: { name?: string; description?: string }, command: Command) => {
      if (flags.name === undefined && flags.description === undefined) {
        throw new CliUsageError('Give --name, --description or both.');
      }
      const client = session.client(command);
      const out = session.output(command);
      const updated = await client.applications.update(
        appId,
        {
          ...(flags.name !== undefined && { name: flags.name }),
          ...(flags.description !== undefined && { description: flags.description }),
        },
        session.requestOptions,
      );
      if (out.json) return out.printJson(updated);
      out.fields([
        ['id', updated.id],
        ['name', updated.name],
        ['description', updated.description || '-'],
        ['updated', formatLocalTime(updated.updatedAt)],
      ]);
    });
}
