import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A local stand-in for what Next.js and Vercel do around a route handler, so the example runs
 * without them: `after(callback)` and `waitUntil(promise)` register work for the current request,
 * and the platform answers first, then runs and awaits that work before it freezes the function.
 */
const requestWork = new AsyncLocalStorage();

/**
 * Next.js `after()`: runs `callback` once the response has been sent; the function stays alive
 * until the promise it returns settles.
 *
 * @param {() => unknown} callback
 * @example
 * after(() => processor.forceFlush());
 */
export function after(callback) {
  currentWork().callbacks.push(callback);
}

/**
 * `waitUntil()` of '@vercel/functions': the function stays alive until `promise` settles.
 *
 * @param {Promise<unknown>} promise
 * @example
 * waitUntil(processor.forceFlush());
 */
export function waitUntil(promise) {
  currentWork().promises.push(promise);
}

function currentWork() {
  const work = requestWork.getStore();
  if (work === undefined) throw new Error('after()/waitUntil() called outside a request');
  return work;
}

/**
 * The platform's side of one request: runs the handler, hands its response over (`respond`),
 * then runs what `after()` registered and waits for all that `after()` and `waitUntil()` hold.
 * When it resolves the platform may freeze the process.
 *
 * @param {(request: Request) => Promise<Response>} handler
 * @param {Request} request
 * @param {(response: Response) => Promise<void>} respond
 * @returns {Promise<void>}
 * @example
 * await serveRequest(POST, request, async (response) => console.log(await response.json()));
 */
export async function serveRequest(handler, request, respond) {
  const work = { callbacks: [], promises: [] };
  const response = await requestWork.run(work, () => handler(request));
  await respond(response);
  for (const callback of work.callbacks) work.promises.push(Promise.resolve().then(callback));
  await Promise.allSettled(work.promises);
}
