import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleAnthropicCountTokens, handleAnthropicMessages } from './anthropic-messages.js';
import { handleEmbeddings } from './embeddings.js';
import { type ErrorShape, sendError } from './errors.js';
import type { HandlerContext } from './handler-context.js';
import { HttpError, parseJsonBody, readBody } from './http-io.js';
import { handleGetModel, handleListModels } from './models.js';
import { handleOpenAiChat } from './openai-chat.js';
import { handleOpenAiResponses } from './openai-responses.js';

type PostHandler = (body: unknown, res: ServerResponse, context: HandlerContext) => void | Promise<void>;

const POST_ROUTES: ReadonlyMap<string, PostHandler> = new Map<string, PostHandler>([
  ['/v1/chat/completions', handleOpenAiChat],
  ['/v1/responses', handleOpenAiResponses],
  ['/v1/embeddings', (body, res) => handleEmbeddings(body, res)],
  ['/v1/messages', handleAnthropicMessages],
  ['/v1/messages/count_tokens', (body, res) => handleAnthropicCountTokens(body, res)],
]);

/**
 * Serves one request. Never rejects: every failure becomes an error answer in the caller's API shape
 * (or a cut stream, when the answer had already started).
 */
export async function route(
  req: IncomingMessage,
  res: ServerResponse,
  context: HandlerContext,
): Promise<void> {
  const path = pathOf(req.url);
  const shape: ErrorShape =
    path.startsWith('/v1/messages') || req.headers['anthropic-version'] !== undefined
      ? 'anthropic'
      : 'openai';
  try {
    await dispatch(req, res, path, context);
  } catch (error) {
    sendError(res, error, shape);
  }
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  context: HandlerContext,
): Promise<void> {
  const post = POST_ROUTES.get(path);
  if (post !== undefined) {
    if (req.method !== 'POST') throw methodNotAllowed(req, res, path, 'POST');
    const body = parseJsonBody(await readBody(req));
    await post(body, res, context);
    return;
  }
  if (path === '/v1/models' || path.startsWith('/v1/models/')) {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req, res, path, 'GET');
    req.resume();
    if (path === '/v1/models') handleListModels(req, res);
    else handleGetModel(req, res, decodePathSegment(path.slice('/v1/models/'.length)));
    return;
  }
  req.resume();
  throw new HttpError(404, `no route for ${req.method ?? 'GET'} ${path}`, 'not_found_error');
}

function methodNotAllowed(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  allowed: string,
): HttpError {
  req.resume();
  res.setHeader('allow', allowed);
  return new HttpError(
    405,
    `${path} takes ${allowed}, got ${req.method ?? 'no method'}`,
    'invalid_request_error',
  );
}

/** The path of a request URL, without query and trailing slash; `/` for an unparsable URL. */
function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A URL path segment decoded, or as is when its escapes are malformed. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
