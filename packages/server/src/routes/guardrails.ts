import type { GuardrailsConfig, UpdateGuardrailsBody } from '@aqm/wire';
import { checkValidators, validatorCatalog } from '../catalog/index.js';
import { notFound } from '../errors.js';
import { requireApplication, type ServiceContext, throwIfInvalid } from './context.js';
import type { RouteHandlers } from './route-types.js';

type GuardrailRoutes =
  | 'guardrails.get'
  | 'guardrails.update'
  | 'guardrails.validators'
  | 'guardrails.evaluations.list'
  | 'guardrails.evaluations.get';

/** Handlers of an application's guardrails: configuration, validator catalog and evaluation records. */
export function guardrailHandlers(ctx: ServiceContext): Pick<RouteHandlers, GuardrailRoutes> {
  const records = ctx.store.guardrailRecords;
  return {
    'guardrails.get': ({ projectId, params }) =>
      requireApplication(ctx, projectId, params.applicationId).guardrails,
    'guardrails.update': ({ projectId, params, body }) => {
      throwIfInvalid([
        ...(body.input_validators === undefined
          ? []
          : checkValidators(body.input_validators, 'input_validators')),
        ...(body.output_validators === undefined
          ? []
          : checkValidators(body.output_validators, 'output_validators')),
      ]);
      const app = requireApplication(ctx, projectId, params.applicationId);
      const guardrails = mergeGuardrails(app.guardrails, body);
      ctx.store.applications.update(projectId, app.id, { guardrails, updatedAt: ctx.now() });
      return guardrails;
    },
    'guardrails.validators': () => validatorCatalog,
    'guardrails.evaluations.list': ({ projectId, params, query }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      const { items, total } = records.list(app.id, query);
      return { results: items, count: total, page: query.page, limit: query.limit };
    },
    'guardrails.evaluations.get': ({ projectId, params }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      const record = records.find(app.id, params.evaluationId);
      if (record === undefined) throw notFound(`Guardrail evaluation ${params.evaluationId}`);
      return record;
    },
  };
}

/** Fields given replace the stored ones (arrays whole); omitted fields stay. */
export function mergeGuardrails(current: GuardrailsConfig, body: UpdateGuardrailsBody): GuardrailsConfig {
  return {
    enable_guard_rails: body.enable_guard_rails ?? current.enable_guard_rails,
    input_validators: body.input_validators ?? current.input_validators,
    output_validators: body.output_validators ?? current.output_validators,
  };
}
