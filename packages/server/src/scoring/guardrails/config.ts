import { configValueErrors } from '../../catalog/check-validators.js';
import { findValidatorEntry } from '../../catalog/validators.js';

/**
 * A validator setting: the configured value when it fits the catalog template, else the
 * template default. Stored configurations were checked already; this keeps runs total.
 */
export function configValue(
  type: string,
  config: Readonly<Record<string, unknown>> | undefined,
  key: string,
): unknown {
  const template = findValidatorEntry(type)?.configTemplate[key];
  // Only reachable through a code defect: a unit test pins every validator to a catalog entry.
  if (!template) throw new Error(`validator "${type}" has no setting "${key}" in the validator catalog`);
  const value = config?.[key];
  return value !== undefined && configValueErrors(template, value, key).length === 0
    ? value
    : template.default;
}

/** A `string[]` setting (see {@link configValue}). */
export function stringListValue(
  type: string,
  config: Readonly<Record<string, unknown>> | undefined,
  key: string,
): string[] {
  const value = configValue(type, config, key);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A `number` setting (see {@link configValue}). */
export function numberValue(
  type: string,
  config: Readonly<Record<string, unknown>> | undefined,
  key: string,
): number {
  return Number(configValue(type, config, key));
}
