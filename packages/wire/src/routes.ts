import type { z } from 'zod';
import {
  applicationDetailSchema,
  applicationSchema,
  createApplicationBodySchema,
  listApplicationsQuerySchema,
  updateApplicationBodySchema,
  updatedApplicationSchema,
} from './applications.js';
import { evalMetricSchema, securityCatalogSchema } from './catalogs.js';
import { evaluationResultSchema, listEvaluationsQuerySchema } from './evaluations.js';
import {
  guardrailEvaluationPageSchema,
  guardrailEvaluationSchema,
  guardrailsConfigSchema,
  listGuardrailEvaluationsQuerySchema,
  updateGuardrailsBodySchema,
  validatorCatalogEntrySchema,
} from './guardrails.js';
import { monitoringConfigSchema, updateMonitoringBodySchema } from './monitoring.js';
import {
  listTracesQuerySchema,
  submitEvaluationsBodySchema,
  submitEvaluationsResultSchema,
  traceSchema,
  traceSummarySchema,
} from './traces.js';
import { widgetDataBodySchema, widgetDataItemSchema, widgetSchema } from './widgets.js';

/** The HTTP methods the interface uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/** How a route's `data` is enveloped. */
export type ResponseKind = 'data' | 'paged';

/** One endpoint of the interface. */
export interface RouteDef {
  method: HttpMethod;
  /** Path relative to `{base_url}`, with `{param}` placeholders. */
  path: string;
  /** Safe to send again after a failure: GET, PUT, PATCH, and the evaluations POST (idempotent by traceId). */
  retryable: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of `data` (an item schema for paged lists). */
  data: z.ZodType;
  response: ResponseKind;
}

function route<const R extends RouteDef>(def: R): R {
  return def;
}

/**
 * Every endpoint of the interface, by the name of its client method. The client builds its
 * requests from this table and the local service registers its routes from it, so the two
 * cannot disagree on a method, a path or a shape.
 */
export const routes = {
  'applications.list': route({
    method: 'GET',
    path: '/applications',
    retryable: true,
    query: listApplicationsQuerySchema,
    data: applicationSchema,
    response: 'paged',
  }),
  'applications.create': route({
    method: 'POST',
    path: '/applications',
    retryable: false,
    body: createApplicationBodySchema,
    data: applicationSchema,
    response: 'data',
  }),
  'applications.get': route({
    method: 'GET',
    path: '/applications/{applicationId}',
    retryable: true,
    data: applicationDetailSchema,
    response: 'data',
  }),
  'applications.update': route({
    method: 'PATCH',
    path: '/applications/{applicationId}',
    retryable: true,
    body: updateApplicationBodySchema,
    data: updatedApplicationSchema,
    response: 'data',
  }),
  'monitoring.get': route({
    method: 'GET',
    path: '/applications/{applicationId}/monitoring',
    retryable: true,
    data: monitoringConfigSchema,
    response: 'data',
  }),
  'monitoring.update': route({
    method: 'PUT',
    path: '/applications/{applicationId}/monitoring',
    retryable: true,
    body: updateMonitoringBodySchema,
    data: monitoringConfigSchema,
    response: 'data',
  }),
  'guardrails.get': route({
    method: 'GET',
    path: '/applications/{applicationId}/guardrails',
    retryable: true,
    data: guardrailsConfigSchema,
    response: 'data',
  }),
  'guardrails.update': route({
    method: 'PUT',
    path: '/applications/{applicationId}/guardrails',
    retryable: true,
    body: updateGuardrailsBodySchema,
    data: guardrailsConfigSchema,
    response: 'data',
  }),
  'guardrails.validators': route({
    method: 'GET',
    path: '/guardrails/validators',
    retryable: true,
    data: validatorCatalogEntrySchema.array(),
    response: 'data',
  }),
  'guardrails.evaluations.list': route({
    method: 'GET',
    path: '/applications/{applicationId}/guardrails/evaluations',
    retryable: true,
    query: listGuardrailEvaluationsQuerySchema,
    data: guardrailEvaluationPageSchema,
    response: 'data',
  }),
  'guardrails.evaluations.get': route({
    method: 'GET',
    path: '/applications/{applicationId}/guardrails/evaluations/{evaluationId}',
    retryable: true,
    data: guardrailEvaluationSchema,
    response: 'data',
  }),
  'traces.list': route({
    method: 'GET',
    path: '/applications/{applicationId}/traces',
    retryable: true,
    query: listTracesQuerySchema,
    data: traceSummarySchema,
    response: 'paged',
  }),
  'traces.get': route({
    method: 'GET',
    path: '/applications/{applicationId}/traces/{traceId}',
    retryable: true,
    data: traceSchema,
    response: 'data',
  }),
  'evaluations.submit': route({
    method: 'POST',
    path: '/applications/{applicationId}/evaluations',
    retryable: true,
    body: submitEvaluationsBodySchema,
    data: submitEvaluationsResultSchema,
    response: 'data',
  }),
  'evaluations.list': route({
    method: 'GET',
    path: '/applications/{applicationId}/evaluations',
    retryable: true,
    query: listEvaluationsQuerySchema,
    data: evaluationResultSchema,
    response: 'paged',
  }),
  'widgets.list': route({
    method: 'GET',
    path: '/widgets',
    retryable: true,
    data: widgetSchema.array(),
    response: 'data',
  }),
  'widgets.data': route({
    method: 'POST',
    path: '/applications/{applicationId}/widget-data',
    retryable: true,
    body: widgetDataBodySchema,
    data: widgetDataItemSchema.array(),
    response: 'data',
  }),
  'metrics.eval': route({
    method: 'GET',
    path: '/metrics/eval',
    retryable: true,
    data: evalMetricSchema.array(),
    response: 'data',
  }),
  'metrics.security': route({
    method: 'GET',
    path: '/metrics/security',
    retryable: true,
    data: securityCatalogSchema,
    response: 'data',
  }),
} as const satisfies Record<string, RouteDef>;

/** The name of an endpoint in {@link routes}, after its client method, such as `applications.list`. */
export type RouteName = keyof typeof routes;

/**
 * Fills a path template: `/applications/{applicationId}` + `{ applicationId }`. Each value is
 * URI-encoded; a missing or empty parameter throws a `TypeError` naming it.
 */
export function buildPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`${name} is required and must be a non-empty string`);
    }
    return encodeURIComponent(value);
  });
}
