import {
  type ConfigFieldTemplate,
  type FieldError,
  formatPath,
  MAX_CONFIG_LIST_ITEMS,
  MAX_SHORT_TEXT,
  type Validator,
  type ValidatorCatalogEntry,
} from '@aqm/wire';
import { describeValue } from '../describe-value.js';
import { validatorCatalog } from './validators.js';

/** The configuration arrays a validator can sit in, and the stage each one feeds. */
export type ValidatorField = 'input_validators' | 'output_validators';
const STAGE_OF_FIELD = { input_validators: 'input', output_validators: 'output' } as const;

function numberProblem(template: ConfigFieldTemplate, value: unknown): string | undefined {
  const { min, max } = template;
  const inRange =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (min === undefined || value >= min) &&
    (max === undefined || value <= max);
  if (inRange) return undefined;
  let bounds = '';
  if (min !== undefined && max !== undefined) bounds = ` from ${min} to ${max}`;
  else if (min !== undefined) bounds = ` >= ${min}`;
  else if (max !== undefined) bounds = ` <= ${max}`;
  return `must be a number${bounds}, got ${describeValue(value)}`;
}

function stringProblem(template: ConfigFieldTemplate, value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describeValue(value)}`;
  if (value.length > MAX_SHORT_TEXT)
    return `must be at most ${MAX_SHORT_TEXT} characters, got ${value.length}`;
  if (template.enum && !template.enum.includes(value)) {
    return `must be one of ${template.enum.join(', ')}; got ${describeValue(value)}`;
  }
  return undefined;
}

/** Checks one `config` value against its template; `path` is the value's `errors[]` path. */
export function configValueErrors(template: ConfigFieldTemplate, value: unknown, path: string): FieldError[] {
  let problem: string | undefined;
  switch (template.type) {
    case 'number':
      problem = numberProblem(template, value);
      break;
    case 'boolean':
      problem = typeof value === 'boolean' ? undefined : `must be a boolean, got ${describeValue(value)}`;
      break;
    case 'string':
      problem = stringProblem(template, value);
      break;
    case 'string[]': {
      if (!Array.isArray(value)) {
        const allowed = template.enum ? ` (values: ${template.enum.join(', ')})` : '';
        return [{ path, message: `must be an array of strings${allowed}, got ${describeValue(value)}` }];
      }
      // Scoring cost grows with the list (e.g. banned topics against every word of a text).
      if (value.length > MAX_CONFIG_LIST_ITEMS) {
        return [{ path, message: `must hold at most ${MAX_CONFIG_LIST_ITEMS} items, got ${value.length}` }];
      }
      return value.flatMap((item: unknown, index) => {
        const itemProblem = stringProblem(template, item);
        return itemProblem ? [{ path: `${path}[${index}]`, message: itemProblem }] : [];
      });
    }
  }
  return problem ? [{ path, message: problem }] : [];
}

function checkConfig(entry: ValidatorCatalogEntry, config: unknown, base: ReadonlyArray<string | number>) {
  if (config === undefined) return [];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [
      { path: formatPath([...base, 'config']), message: `must be an object, got ${describeValue(config)}` },
    ];
  }
  const settings = Object.keys(entry.configTemplate);
  return Object.entries(config).flatMap(([key, value]): FieldError[] => {
    const path = formatPath([...base, 'config', key]);
    const template = Object.hasOwn(entry.configTemplate, key) ? entry.configTemplate[key] : undefined;
    if (!template) {
      const accepted = settings.length > 0 ? `accepted: ${settings.join(', ')}` : 'it takes no settings';
      return [{ path, message: `is not a setting of validator "${entry.type}"; ${accepted}` }];
    }
    return value === undefined ? [] : configValueErrors(template, value, path);
  });
}

/**
 * Checks validators against a validator catalog: each `type` is in the catalog and allowed
 * for the stage of `field`, and each `config` key is in its template, with a value of the
 * right type, range and allowed values. Paths look like `input_validators[0].type` and
 * `output_validators[1].config.entities[2]`.
 */
export function checkValidatorsAgainst(
  catalog: readonly ValidatorCatalogEntry[],
  validators: Validator[],
  field: ValidatorField,
): FieldError[] {
  const stage = STAGE_OF_FIELD[field];
  const known = catalog.map((entry) => entry.type).join(', ');
  return validators.flatMap((validator, index): FieldError[] => {
    const typePath = formatPath([field, index, 'type']);
    const entry = catalog.find((candidate) => candidate.type === validator.type);
    if (!entry) {
      return [
        {
          path: typePath,
          message: `unknown validator type ${describeValue(validator.type)}; known: ${known}`,
        },
      ];
    }
    if (!entry.stages.includes(stage)) {
      return [
        {
          path: typePath,
          message: `validator "${entry.type}" cannot run at the ${stage} stage; allowed stages: ${entry.stages.join(', ')}`,
        },
      ];
    }
    return checkConfig(entry, validator.config, [field, index]);
  });
}

/**
 * Checks the `input_validators` or `output_validators` of a guardrails update against the
 * validator catalog.
 * @example
 * ```ts
 * checkValidators([{ type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL'] } }], 'output_validators');
 * // [{ path: 'output_validators[0].config.entities[0]', message: 'must be one of EMAIL_ADDRESS, ...; got "EMAIL"' }]
 * ```
 */
export function checkValidators(validators: Validator[], field: ValidatorField): FieldError[] {
  return checkValidatorsAgainst(validatorCatalog, validators, field);
}
