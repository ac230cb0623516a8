import { type ApplicationDetail, type AqmClient, AqmValidationError } from '@aqm/client';
import type { Command } from 'commander';
import { type ApplyConfig, validateApplyConfig } from '../apply/apply-config.js';
import { errorLines, type LocatedFile, parseLocatedFile } from '../apply/error-lines.js';
import { planApply } from '../apply/plan.js';
import { readInputText } from '../read-body.js';
import { renderChanges } from '../render/diff.js';
import type { Session } from '../session.js';
import { CliFailure, CliUsageError } from '../usage-error.js';

/** The application of the project with exactly this name, with its configuration, if any. */
async function findByName(
  client: AqmClient,
  name: string,
  options: { signal?: AbortSignal },
): Promise<ApplicationDetail | undefined> {
  for await (const app of client.applications.iterate({ search: name, limit: 100 }, options)) {
    if (app.name === name) return client.applications.get(app.id, options);
  }
  return undefined;
}

/** Runs one save; a 400 is reported against the lines of the file, under `prefix`. */
async function save<T>(
  step: () => Promise<T>,
  prefix: string,
  file: LocatedFile,
  name: string,
  createdId: string | undefined,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof AqmValidationError)) throw err;
    const errors = err.errors.map((e) => ({
      ...e,
      path: e.path === '$' ? prefix : e.path === 'applicationId' ? e.path : `${prefix}.${e.path}`,
    }));
    const created =
      createdId === undefined
        ? ''
        : ` The application was created (${createdId}); fix the file and apply again.`;
    throw new CliFailure(
      `The service rejected ${prefix} of ${name} (400).${created}`,
      errorLines(file, name, errors),
    );
  }
}

async function applyPlan(
  client: AqmClient,
  config: ApplyConfig,
  current: ApplicationDetail | undefined,
  plan: ReturnType<typeof planApply>,
  file: LocatedFile,
  name: string,
  options: { signal?: AbortSignal },
): Promise<{ id: string; saved: string[] }> {
  const saved: string[] = [];
  let id = current?.id;
  let createdId: string | undefined;
  if (id === undefined) {
    const app = await save(
      () => client.applications.create(config.application, options),
      'application',
      file,
      name,
      undefined,
    );
    id = createdId = app.id;
    saved.push('application');
  } else if (plan.updateDescription) {
    const body = { description: config.application.description ?? '' };
    await save(
      () => client.applications.update(id as string, body, options),
      'application',
      file,
      name,
      undefined,
    );
    saved.push('application');
  }
  const appId = id;
  if (plan.updateMonitoring && config.monitoring) {
    const body = config.monitoring;
    await save(() => client.monitoring.update(appId, body, options), 'monitoring', file, name, createdId);
    saved.push('monitoring');
  }
  if (plan.updateGuardrails && config.guardrails) {
    const body = config.guardrails;
    await save(() => client.guardrails.update(appId, body, options), 'guardrails', file, name, createdId);
    saved.push('guardrails');
  }
  return { id: appId, saved };
}

/** `aqm apply FILE`: configuration as code. */
export function registerApplyCommand(program: Command, session: Session): void {
  program
    .command('apply')
    .description('create or update an application, its monitoring and guardrails from a JSON or YAML file')
    .argument('<file>', 'aqm.config.json or aqm.config.yaml; - reads stdin')
    .option('--dry-run', 'show the differences only; save nothing')
    .addHelpText(
      'after',
      `
The file names the application (found by its name, created when missing) and the monitoring
and guardrails it should have; each section is the body of the service's PUT:

  application:
    name: support-bot
    description: Answers customer questions
  monitoring:
    metrics:
      - type: answer_relevance
        threshold: 0.7
  guardrails:
    enable_guard_rails: true
    input_validators:
      - type: prompt-injection
        on_fail: fail`,
    )
    .action(async (fileArg: string, flags: { dryRun?: boolean }, command: Command) => {
      const { text, name } = await readInputText(fileArg, session.io);
      const file = await parseLocatedFile(text, name);
      const { config, errors } = validateApplyConfig(file.value);
      if (config === undefined) {
        throw new CliUsageError(
          `${name} is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'}); nothing was sent. Fix the lines below.`,
          errorLines(file, name, errors),
        );
      }
      const client = session.client(command);
      const out = session.output(command);
      const current = await findByName(client, config.application.name, session.requestOptions);
      const plan = planApply(config, current);
      const dryRun = flags.dryRun === true;
      const nothingToDo = !plan.create && plan.changes.length === 0;
      const result =
        nothingToDo || dryRun
          ? undefined
          : await applyPlan(client, config, current, plan, file, name, session.requestOptions);
      if (out.json) {
        return out.printJson({
          application: { id: result?.id ?? current?.id ?? null, name: config.application.name },
          create: plan.create,
          dryRun,
          changes: plan.changes,
          saved: result?.saved ?? [],
        });
      }
      const title = plan.create
        ? `Application "${config.application.name}" does not exist: it ${dryRun ? 'would be' : 'was'} created.`
        : `Application "${config.application.name}" (${current?.id}):`;
      out.line(out.palette.bold(title));
      if (plan.changes.length === 0) out.line('No changes.');
      else out.lines(renderChanges(plan.changes, out.palette));
      if (dryRun) out.note('Dry run: nothing was saved.');
      else if (result) out.note(`Saved ${result.saved.join(', ')} of application ${result.id}.`);
    });
}
