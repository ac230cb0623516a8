import { formatPath, pathWithPrototypeKey } from '@aqm/wire';
import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.js';

/**
 * Replaces fastify's JSON body parser, which answers every refusal (a syntax error, a
 * `__proto__` key) with one "invalid JSON" error and no reason, by one that names them: the
 * parser's own message for a syntax error, and the path of a `__proto__` or
 * `constructor.prototype` key, refused as fastify refuses them (they could change a prototype
 * where a value is merged into an object). Same size limit: the instance's `bodyLimit`.
 */
export function parseJsonBodiesWithReasons(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(validationError([{ path: '$', message: 'is required: the JSON body is empty' }]), undefined);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      done(
        validationError([{ path: '$', message: `is not valid JSON (${(error as Error).message})` }]),
        undefined,
      );
      return;
    }
    const key = pathWithPrototypeKey(value);
    if (key !== undefined) {
      const name = key[key.length - 1];
      done(
        validationError([
          {
            path: formatPath(key),
            message: `is not allowed: a "${String(name)}" key could change an object's prototype`,
          },
        ]),
        undefined,
      );
      return;
    }
    done(null, value);
  });
}
