import { z } from 'zod';

/** An extra key a metric accepts (eval metric catalog `additionalFields`). */
export const additionalFieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  label: z.string(),
  mandatory: z.boolean(),
});
/** An extra key an eval metric accepts, such as `threshold` (catalog `additionalFields`). */
export type AdditionalField = z.infer<typeof additionalFieldSchema>;

/** An entry of `GET /metrics/eval` (spec). */
export const evalMetricSchema = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  description: z.string(),
  valueType: z.string(),
  mandatory: z.number().int(),
  additionalFields: z.array(additionalFieldSchema),
});
/** An entry of the eval metric catalog, `GET /metrics/eval`. */
export type EvalMetric = z.infer<typeof evalMetricSchema>;

/** A plugin of the security plugin catalog. */
export const securityPluginSchema = z.object({ type: z.string(), description: z.string() });
/** A plugin of the security plugin catalog: its `type` id and a description. */
export type SecurityPlugin = z.infer<typeof securityPluginSchema>;

/** `GET /metrics/security` data: plugins keyed by risk category (spec). */
export const securityCatalogSchema = z.record(z.string(), z.array(securityPluginSchema));
/** `GET /metrics/security` data: security plugins keyed by risk category. */
export type SecurityCatalog = z.infer<typeof securityCatalogSchema>;
