import type { UpdateGuardrailsBody, UpdateMonitoringBody } from '@aqm/client';
import {
  createApplicationBodySchema,
  type FieldError,
  toFieldErrors,
  updateGuardrailsBodySchema,
  updateMonitoringBodySchema,
} from '@aqm/wire';

/**
 * The file `aqm apply` reads: the application (found by its name), and the monitoring and
 * guardrails it should have. The two sections are the bodies of the service's PUTs.
 */
export interface ApplyConfig {
  application: { name: string; description?: string | undefined };
  monitoring?: UpdateMonitoringBody | undefined;
  guardrails?: UpdateGuardrailsBody | undefined;
}

const TOP_LEVEL_KEYS = ['application', 'monitoring', 'guardrails'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one section with its wire schema, reporting paths from the top of the file. */
function checkSection(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: unknown } | { success: false; error: Parameters<typeof toFieldErrors>[0] };
  },
  value: unknown,
  prefix: string,
  errors: FieldError[],
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors.push(...toFieldErrors(result.error, prefix));
  return undefined;
}

/**
 * Validates an apply file locally with the `@aqm/wire` schemas, the ones the service uses, so
 * mistakes are found before anything is sent. Returns the config, or every error found with
 * paths such as `monitoring.metrics[1].type` (the root is `$`).
 */
export function validateApplyConfig(value: unknown): { config?: ApplyConfig; errors: FieldError[] } {
  if (!isPlainObject(value)) {
    return {
      errors: [{ path: '$', message: 'must be an object with application, monitoring and guardrails' }],
    };
  }
  const errors: FieldError[] = [];
  for (const key of Object.keys(value)) {
    if (!TOP_LEVEL_KEYS.includes(key)) errors.push({ path: key, message: 'is not a known field' });
  }
  if (value.application === undefined) errors.push({ path: 'application', message: 'is required' });
  else checkSection(createApplicationBodySchema, value.application, 'application', errors);
  if (value.monitoring !== undefined)
    checkSection(updateMonitoringBodySchema, value.monitoring, 'monitoring', errors);
  if (value.guardrails !== undefined)
    checkSection(updateGuardrailsBodySchema, value.guardrails, 'guardrails', errors);
  if (errors.length > 0) return { errors };
  // Keep the sections as written (not the parsed forms): the service receives what the file says.
  const application = value.application as ApplyConfig['application'];
  return {
    config: {
      application: { ...application, name: application.name.trim() },
      ...(value.monitoring !== undefined && { monitoring: value.monitoring as UpdateMonitoringBody }),
      ...(value.guardrails !== undefined && { guardrails: value.guardrails as UpdateGuardrailsBody }),
    },
    errors,
  };
}
