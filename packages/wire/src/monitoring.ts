import { z } from 'zod';
import { expects } from './common.js';
import {
  MAX_CONFIG_TEXT,
  MAX_METRICS,
  MAX_PLUGIN_CATEGORIES,
  MAX_PLUGINS_PER_CATEGORY,
  MAX_SHORT_TEXT,
} from './limits.js';

const configText = () =>
  z
    .string({ message: 'must be a string' })
    .max(MAX_CONFIG_TEXT, { message: `must be at most ${MAX_CONFIG_TEXT} characters` });

/** The keys of `securityConfig` (spec: Monitoring configuration). All strings, all optional. */
export const SECURITY_CONFIG_KEYS = [
  'purpose',
  'hasAccessTo',
  'doesNotHaveAccessTo',
  'userTypes',
  'securityRequirements',
  'sensitiveDataTypes',
  'exampleIdentifiers',
  'criticalActions',
  'forbiddenTopics',
  'competitors',
  'redteamUser',
] as const;

/** The `securityConfig` of the monitoring configuration: only the known keys, each an optional string. */
export const securityConfigSchema = z
  .object(
    Object.fromEntries(SECURITY_CONFIG_KEYS.map((key) => [key, configText().optional()])) as {
      [K in (typeof SECURITY_CONFIG_KEYS)[number]]: z.ZodOptional<z.ZodString>;
    },
  )
  .strict();
/** The `securityConfig` of the monitoring configuration (keys of {@link SECURITY_CONFIG_KEYS}). */
export type SecurityConfig = z.infer<typeof securityConfigSchema>;

/**
 * A metric of the monitoring configuration. `type` names an eval metric catalog entry; other
 * keys (such as `threshold`) are that entry's `additionalFields`, checked by the service.
 */
export const metricSchema = z.looseObject({
  type: z
    .string({ error: expects('must be a string') })
    .min(1, { message: 'must not be empty' })
    .max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` }),
  threshold: z.number({ message: 'must be a number' }).optional(),
});
/** A metric of the monitoring configuration: an eval metric `type` plus its additional fields. */
export type Metric = z.infer<typeof metricSchema>;

/** Security plugins grouped by risk category: `{ harmful: ['harmful:hate', ...] }`. */
export const pluginsSchema = z
  .record(
    z.string().max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` }),
    z
      .array(
        z
          .string({ message: 'must be a plugin id string' })
          .max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` }),
      )
      .max(MAX_PLUGINS_PER_CATEGORY, { message: `must hold at most ${MAX_PLUGINS_PER_CATEGORY} plugin ids` }),
  )
  .refine((plugins) => Object.keys(plugins).length <= MAX_PLUGIN_CATEGORIES, {
    message: `must hold at most ${MAX_PLUGIN_CATEGORIES} categories`,
  });
/** Security plugin ids grouped by risk category. */
export type Plugins = z.infer<typeof pluginsSchema>;

/** The monitoring configuration as the service returns it. */
export const monitoringConfigSchema = z.object({
  metrics: z.array(metricSchema),
  plugins: pluginsSchema,
  securityPurpose: z.string(),
  securityConfig: securityConfigSchema,
});
/** `GET /applications/{id}/monitoring` data: metrics, plugins, security purpose and config. */
export type MonitoringConfig = z.infer<typeof monitoringConfigSchema>;

/** `PUT /applications/{id}/monitoring` body: at least one field. */
export const updateMonitoringBodySchema = z
  .object({
    metrics: z
      .array(metricSchema, { message: 'must be an array of metric objects' })
      .max(MAX_METRICS, { message: `must hold at most ${MAX_METRICS} metrics` })
      .optional(),
    plugins: pluginsSchema.optional(),
    securityPurpose: configText().optional(),
    securityConfig: securityConfigSchema.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'at least one of metrics, plugins, securityPurpose, securityConfig must be provided',
  });
/** `PUT /applications/{id}/monitoring` body as sent: at least one field. */
export type UpdateMonitoringBody = z.input<typeof updateMonitoringBodySchema>;
