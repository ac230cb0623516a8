import type { GuardrailEvaluationSummary, GuardrailsConfig, UpdateGuardrailsBody } from '@aqm/client';
import type { Command } from 'commander';
import { parseValidatorFlag } from '../config-flags.js';
import { resolveTimeRange, type TimeRangeFlags } from '../durations.js';
import { collect, oneOf } from '../flag-parsers.js';
import { addListOptions, addTimeRangeOptions } from '../list-options.js';
import { collectList, type ListFlags } from '../list-paging.js';
import { readBody, requireObject } from '../read-body.js';
import { formatLocalTime } from '../render/local-time.js';
import type { Output } from '../render/output.js';
import { paintPassStatus, passStatusWord } from '../render/scores.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';

/** `--status` as typed (pass/fail, or the service's own words) → the service's `passStatus`. */
const PASS_STATUS = { pass: 'success', fail: 'error', success: 'success', error: 'error' } as const;

type ValidatorRow = GuardrailsConfig['input_validators'][number] & { stage: string };

function printGuardrails(out: Output, config: GuardrailsConfig): void {
  out.line(
    `Guardrails: ${config.enable_guard_rails ? out.palette.green('enabled') : out.palette.yellow('disabled')}`,
  );
  const rows: ValidatorRow[] = [
    ...config.input_validators.map((v) => ({ ...v, stage: 'input' })),
    ...config.output_validators.map((v) => ({ ...v, stage: 'output' })),
  ];
  out.table(
    [
      { header: 'STAGE', value: (v: ValidatorRow) => v.stage },
      { header: 'TYPE', value: (v) => v.type },
      { header: 'ON FAIL', value: (v) => v.on_fail },
      { header: 'CONFIG', value: (v) => (v.config ? JSON.stringify(v.config) : '-'), shrink: true },
    ],
    rows,
    '(no validators)',
  );
}

const RECORD_COLUMNS = (out: Output) => [
  { header: 'ID', value: (r: GuardrailEvaluationSummary) => r.id },
  { header: 'TIME', value: (r: GuardrailEvaluationSummary) => formatLocalTime(r.created_at) },
  { header: 'STAGE', value: (r: GuardrailEvaluationSummary) => r.guardrail_stage },
  {
    header: 'RESULT',
    value: (r: GuardrailEvaluationSummary) => passStatusWord(r.passStatus),
    style: (text: string, r: GuardrailEvaluationSummary) =>
      text.replace(passStatusWord(r.passStatus), paintPassStatus(r.passStatus, out.palette)),
  },
  { header: 'FAILED', value: (r: GuardrailEvaluationSummary) => r.categories.join(',') || '-' },
  { header: 'TRACE', value: (r: GuardrailEvaluationSummary) => r.traceId },
  { header: 'CONTENT IF ENFORCED', value: (r: GuardrailEvaluationSummary) => r.final_content, shrink: true },
];

/**
 * Said under guardrail outcomes: the interface records them for submitted traces, after the model
 * call, so they tell what the actions would have done, never what happened to the app's traffic.
 */
const AFTER_THE_FACT =
  'Guardrails run on submitted traces, after the model call: these outcomes say what each action would do ' +
  '(block, mask, filter); nothing was blocked or changed in the app.';

/** What each `on_fail` action would do, as the outcome tables say it. */
const WOULD: Record<string, string> = { fail: 'would block', mask: 'would mask', filter: 'would filter' };

/** `aqm guardrails get|set|validators` and `aqm guardrails evaluations list|get`. */
export function registerGuardrailsCommands(program: Command, session: Session): void {
  const guardrails = program
    .command('guardrails')
    .description('read and set guardrails, and read the outcomes recorded for traces (what they would do)');

  guardrails
    .command('get')
    .description("show an application's guardrails configuration")
    .argument('<app-id>', 'the application id')
    .action(async (appId: string, _flags: unknown, command: Command) => {
      const config = await session.client(command).guardrails.get(appId, session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(config);
      printGuardrails(out, config);
    });

  guardrails
    .command('set')
    .description('save guardrails from a file and/or flags (validator lists given replace the stored ones)')
    .argument('<app-id>', 'the application id')
    .option('-f, --file <path>', 'a JSON or YAML body of PUT .../guardrails; - reads stdin')
    .option('--enable', 'turn guardrails on')
    .option('--disable', 'turn guardrails off')
    .option(
      '--input <type:on_fail[:k=v,...]>',
      'an input validator, e.g. prompt-injection:fail (repeatable)',
      collect,
    )
    .option(
      '--output <type:on_fail[:k=v,...]>',
      'an output validator, e.g. pii:mask:entities=EMAIL_ADDRESS|PHONE_NUMBER (repeatable)',
      collect,
    )
    .action(
      async (
        appId: string,
        flags: { file?: string; enable?: boolean; disable?: boolean; input?: string[]; output?: string[] },
        command: Command,
      ) => {
        if (flags.enable && flags.disable) throw new CliUsageError('Give --enable or --disable, not both.');
        const body: Record<string, unknown> =
          flags.file === undefined
            ? {}
            : requireObject(await readBody(flags.file, session.io), 'The guardrails file');
        if (flags.enable) body.enable_guard_rails = true;
        if (flags.disable) body.enable_guard_rails = false;
        if (flags.input) body.input_validators = flags.input.map((v) => parseValidatorFlag(v, '--input'));
        if (flags.output) body.output_validators = flags.output.map((v) => parseValidatorFlag(v, '--output'));
        if (Object.keys(body).length === 0) {
          throw new CliUsageError('Nothing to set: give --file, --enable, --disable, --input or --output.');
        }
        const saved = await session
          .client(command)
          .guardrails.update(appId, body as UpdateGuardrailsBody, session.requestOptions);
        const out = session.output(command);
        if (out.json) return out.printJson(saved);
        printGuardrails(out, saved);
        // Said from what the service stored, not from the flags: a --file body may turn them off too.
        out.note(
          saved.enable_guard_rails
            ? 'Saved. The service runs them on traces submitted from now on and records what they would block or mask; ' +
                'it does not change what your app sends or answers.'
            : 'Saved. Guardrails are off: traces submitted from now on are not checked.',
        );
      },
    );

  guardrails
    .command('validators')
    .description('list the validator types usable in input_validators and output_validators')
    .action(async (_flags: unknown, command: Command) => {
      const catalog = await session.client(command).guardrails.validators(session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(catalog);
      out.table(
        [
          { header: 'TYPE', value: (v: (typeof catalog)[number]) => v.type },
          { header: 'STAGES', value: (v) => v.stages.join(',') },
          { header: 'SETTINGS', value: (v) => Object.keys(v.configTemplate).join(',') || '-' },
          { header: 'DESCRIPTION', value: (v) => v.description, shrink: true },
        ],
        catalog,
      );
    });

  const evaluations = guardrails
    .command('evaluations')
    .description('guardrail outcomes recorded for traces after the fact (what each action would do)');

  addTimeRangeOptions(
    addListOptions(
      evaluations
        .command('list')
        .description('list guardrail records of an application, newest first')
        .argument('<app-id>', 'the application id')
        .option(
          '--status <status>',
          "pass or fail (the service's success or error)",
          oneOf(['pass', 'fail', 'success', 'error'] as const),
        )
        .option('--stage <stage>', 'input or output', oneOf(['input', 'output'] as const))
        .option('--category <category>', 'only records where this validator category failed, e.g. pii')
        .option('--search <text>', 'free text in prompt, response or content'),
    ),
    '24h',
  ).action(
    async (
      appId: string,
      flags: ListFlags &
        TimeRangeFlags & {
          status?: 'pass' | 'fail' | 'success' | 'error';
          stage?: 'input' | 'output';
          category?: string;
          search?: string;
        },
      command: Command,
    ) => {
      const { start, end } = resolveTimeRange(flags, session.now(), '24h');
      const client = session.client(command);
      const out = session.output(command);
      const list = await collectList(flags, async (page, limit) => {
        const result = await client.guardrails.evaluations.list(
          appId,
          {
            start: start as Date,
            end: end as Date,
            page,
            limit,
            passStatus: flags.status === undefined ? undefined : PASS_STATUS[flags.status],
            stage: flags.stage,
            category: flags.category,
            search: flags.search,
          },
          session.requestOptions,
        );
        return { items: result.results, total: result.count };
      });
      if (out.json) return out.printJson(list.items);
      out.table(RECORD_COLUMNS(out), list.items, 'No guardrail records in this range.');
      if (list.items.length > 0) out.note(AFTER_THE_FACT);
      if (list.hint) out.note(list.hint);
    },
  );

  evaluations
    .command('get')
    .description('show one guardrail record with every validator outcome')
    .argument('<app-id>', 'the application id')
    .argument('<evaluation-id>', 'the id of a record (from guardrails evaluations list)')
    .action(async (appId: string, evaluationId: string, _flags: unknown, command: Command) => {
      const record = await session
        .client(command)
        .guardrails.evaluations.get(appId, evaluationId, session.requestOptions);
      const out = session.output(command);
      if (out.json) return out.printJson(record);
      out.fields([
        ['id', record.id],
        ['trace', record.traceId],
        ['time', formatLocalTime(record.created_at)],
        ['stage', record.guardrail_stage],
        ['result', paintPassStatus(record.passStatus, out.palette)],
        ['failed', record.categories.join(', ') || '-'],
        ['latency', `${record.latency} ms`],
        ['prompt', record.prompt],
        ['response', record.response],
        ['content if enforced', record.final_content],
      ]);
      out.line();
      out.table(
        [
          { header: 'VALIDATOR', value: (c: (typeof record.allComponents)[number]) => c.type },
          {
            header: 'RESULT',
            value: (c) => (c.passed ? 'pass' : 'fail'),
            style: (text, c) => (c.passed ? out.palette.green(text) : out.palette.red(text)),
          },
          {
            header: 'SCORE',
            value: (c) => (c.score === undefined ? '-' : c.score.toFixed(2)),
            align: 'right',
          },
          { header: 'ON FAIL', value: (c) => c.onFail },
          { header: 'ACTION', value: (c) => (c.passed ? '-' : (WOULD[c.onFail] ?? c.onFail)) },
          { header: 'MESSAGE', value: (c) => c.message ?? '', shrink: true },
        ],
        record.allComponents,
        '(no validator ran)',
      );
      out.note(AFTER_THE_FACT);
    });
}
