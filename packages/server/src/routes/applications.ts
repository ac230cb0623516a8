import { randomUUID } from 'node:crypto';
import type { Application, ApplicationDetail } from '@aqm/wire';
import { conflict } from '../errors.js';
import type { ApplicationRecord } from '../store/applications-repository.js';
import { requireApplication, type ServiceContext } from './context.js';
import type { RouteHandlers } from './route-types.js';

type ApplicationRoutes =
  | 'applications.list'
  | 'applications.create'
  | 'applications.get'
  | 'applications.update';

/** The configuration of a new application: no metrics, plugins or validators, guardrails off. */
export const EMPTY_CONFIGURATION: Pick<ApplicationRecord, 'monitoring' | 'guardrails'> = {
  monitoring: { metrics: [], plugins: {}, securityPurpose: '', securityConfig: {} },
  guardrails: { enable_guard_rails: false, input_validators: [], output_validators: [] },
};

/** Handlers of the applications resource. Names are unique per project (exact match after trimming). */
export function applicationHandlers(ctx: ServiceContext): Pick<RouteHandlers, ApplicationRoutes> {
  const { applications } = ctx.store;
  return {
    'applications.list': ({ projectId, query }) => {
      const { items, total } = applications.list(projectId, query);
      return { items: items.map(toApplication), total };
    },
    'applications.create': ({ projectId, body }) => {
      if (applications.nameTaken(projectId, body.name)) throw nameConflict(body.name);
      const now = ctx.now();
      const record: ApplicationRecord = {
        id: randomUUID(),
        projectId,
        name: body.name,
        description: body.description ?? '',
        ...structuredClone(EMPTY_CONFIGURATION),
        createdAt: now,
        updatedAt: now,
      };
      applications.insert(record);
      return toApplication(record);
    },
    'applications.get': ({ projectId, params }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      return toDetail(app, logLocation(ctx, app.id));
    },
    'applications.update': ({ projectId, params, body }) => {
      const app = requireApplication(ctx, projectId, params.applicationId);
      if (body.name !== undefined && applications.nameTaken(projectId, body.name, app.id)) {
        throw nameConflict(body.name);
      }
      const updated = applications.update(projectId, app.id, {
        name: body.name,
        description: body.description,
        updatedAt: ctx.now(),
      }) as ApplicationRecord;
      return {
        id: updated.id,
        name: updated.name,
        description: updated.description,
        updatedAt: updated.updatedAt,
      };
    },
  };
}

/** The spec's Application fields of a stored record. */
export function toApplication(app: ApplicationRecord): Application {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

function toDetail(app: ApplicationRecord, location: string): ApplicationDetail {
  return {
    ...toApplication(app),
    monitoring: { ...app.monitoring, logLocation: location },
    guardrails: app.guardrails,
  };
}

/** Where an application's logged traces can be read: the path of its traces list. */
function logLocation(ctx: ServiceContext, applicationId: string): string {
  return `${ctx.prefix}/applications/${applicationId}/traces`;
}

function nameConflict(name: string) {
  return conflict(`An application named ${JSON.stringify(name)} already exists in this project`);
}
