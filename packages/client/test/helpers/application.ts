import type { Application } from '@aqm/wire';

/** An application as the service returns it, with fixed dates: what the in-memory finders hold. */
export function application(name: string, id: string): Application {
  return {
    id,
    name,
    description: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
