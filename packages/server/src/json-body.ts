import { formatPath, pathWithPrototypeKey } from '@aqm/wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from './errors.js';
import type { FairTurns } from './fair-turns.js';

/**
 * Leaves JSON as the only body type, and replaces fastify's JSON body parser, which answers
 * every refusal (a syntax error, a `__proto__` key) with one "invalid JSON" error and no reason,
 * by one that names them: the parser's own message for a syntax error, and the path of a
 * `__proto__` or `constructor.prototype` key, refused as fastify refuses them (they could change
 * a prototype where a value is merged into an object). Same size limit: the instance's `bodyLimit`.
 * A body is parsed in its project's turn (`turns`), so one project's many bodies do not make
 * another project's wait behind all of them; the request stays in progress (`holdWhile`) until
 * its handler has taken over, even if its client hangs up meanwhile.
 */
export function parseJsonBodiesWithReasons(
  app: FastifyInstance,
  turns: FairTurns,
  projectOf: (request: FastifyRequest) => string | undefined,
  holdWhile: <T>(request: FastifyRequest, work: Promise<T>) => Promise<T>,
): void {
  // Bodies are JSON only: fastify's text/plain parser would hand a JSON text sent as text/plain
  // (what fetch sends for a string body without a header) to validation as one string, answered
  // "expected object, received string"; without the parser it is a 415 naming the content type.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // done() inside the held work: fastify goes on to the handler, which holds the request itself.
    const parsed = turns
      .run(projectOf(request) ?? '', () => parseJson(body as string))
      .then(
        (value) => done(null, value),
        (error: Error) => done(error, undefined),
      );
    void holdWhile(request, parsed);
  });
}

/** A body's JSON value. @throws the 400 naming why it is refused. */
function parseJson(text: string): unknown {
  if (text.length === 0)
    throw validationError([{ path: '$', message: 'is required: the JSON body is empty' }]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw validationError([{ path: '$', message: `is not valid JSON (${(error as Error).message})` }]);
  }
  const key = pathWithPrototypeKey(value);
  if (key !== undefined) {
    const name = key[key.length - 1];
    throw validationError([
      {
        path: formatPath(key),
        message: `is not allowed: a "${String(name)}" key could change an object's prototype`,
      },
    ]);
  }
  return value;
}
