import type { ApplicationDetail, GuardrailsConfig, MonitoringConfig } from '@aqm/client';
import { type Change, diffValues } from '../render/diff.js';
import type { ApplyConfig } from './apply-config.js';

/**
 * The monitoring the service will hold after a PUT of `body` onto `current`, by the spec's rules:
 * arrays and objects given replace the stored ones, omitted `securityConfig` keys stay, and
 * `securityPurpose` sets `securityConfig.purpose` after `securityConfig` is applied.
 */
export function monitoringAfter(
  current: MonitoringConfig,
  body: NonNullable<ApplyConfig['monitoring']>,
): MonitoringConfig {
  const next: MonitoringConfig = {
    ...current,
    securityConfig: { ...current.securityConfig, ...(body.securityConfig ?? {}) },
  };
  if (body.metrics !== undefined) next.metrics = body.metrics as MonitoringConfig['metrics'];
  if (body.plugins !== undefined) next.plugins = body.plugins;
  const purpose = body.securityPurpose ?? body.securityConfig?.purpose;
  if (purpose !== undefined) {
    next.securityPurpose = purpose;
    next.securityConfig = { ...next.securityConfig, purpose };
  }
  return next;
}

/** The guardrails after a PUT of `body`: each field given replaces the stored one. */
export function guardrailsAfter(
  current: GuardrailsConfig,
  body: NonNullable<ApplyConfig['guardrails']>,
): GuardrailsConfig {
  return {
    enable_guard_rails: body.enable_guard_rails ?? current.enable_guard_rails,
    input_validators: (body.input_validators ??
      current.input_validators) as GuardrailsConfig['input_validators'],
    output_validators: (body.output_validators ??
      current.output_validators) as GuardrailsConfig['output_validators'],
  };
}

/** What `apply` would do to one application. */
export interface ApplyPlan {
  /** The application does not exist yet and will be created. */
  create: boolean;
  /** Every difference, with paths from the top of the file (`monitoring.metrics[0].threshold`). */
  changes: Change[];
  /** Which saves are needed. */
  updateDescription: boolean;
  updateMonitoring: boolean;
  updateGuardrails: boolean;
}

/**
 * Compares the file with what the service holds (`current`, or `undefined` for an application
 * that does not exist yet) and lists what would change.
 */
export function planApply(config: ApplyConfig, current: ApplicationDetail | undefined): ApplyPlan {
  if (current === undefined) {
    const wanted = {
      application: config.application,
      ...(config.monitoring && { monitoring: config.monitoring }),
      ...(config.guardrails && { guardrails: config.guardrails }),
    };
    return {
      create: true,
      changes: diffValues({}, wanted),
      updateDescription: false,
      updateMonitoring: config.monitoring !== undefined,
      updateGuardrails: config.guardrails !== undefined,
    };
  }
  const description = config.application.description;
  const descriptionChanges =
    description === undefined ? [] : diffValues(current.description, description, 'application.description');
  const { logLocation: _logLocation, ...currentMonitoring } = current.monitoring;
  const monitoringChanges =
    config.monitoring === undefined
      ? []
      : diffValues(currentMonitoring, monitoringAfter(currentMonitoring, config.monitoring), 'monitoring');
  const guardrailsChanges =
    config.guardrails === undefined
      ? []
      : diffValues(current.guardrails, guardrailsAfter(current.guardrails, config.guardrails), 'guardrails');
  return {
    create: false,
    changes: [...descriptionChanges, ...monitoringChanges, ...guardrailsChanges],
    updateDescription: descriptionChanges.length > 0,
    updateMonitoring: monitoringChanges.length > 0,
    updateGuardrails: guardrailsChanges.length > 0,
  };
}
