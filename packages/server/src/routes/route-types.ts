import type { RouteName, routes } from '@aqm/wire';

type Routes = typeof routes;

/** The parsed (output) type of a zod schema, read from its `parse`. */
type OutputOf<S> = S extends { parse(data: unknown, ...rest: never[]): infer O } ? O : undefined;

/** `'a' | 'b'` from `'/x/{a}/y/{b}'`. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;

/** What a handler receives: the caller's project and the route's params, query and body, all validated. */
export interface RouteInput<N extends RouteName> {
  projectId: string;
  params: Record<ParamNames<Routes[N]['path']>, string>;
  query: Routes[N] extends { query: infer S } ? OutputOf<S> : undefined;
  body: Routes[N] extends { body: infer S } ? OutputOf<S> : undefined;
}

type DataOf<N extends RouteName> = OutputOf<Routes[N]['data']>;

/** What a handler returns: the `data` of the envelope, or for paged routes a page of items and the total. */
export type RouteResult<N extends RouteName> = Routes[N]['response'] extends 'paged'
  ? { items: DataOf<N>[]; total: number }
  : DataOf<N>;

/** The handler of one route. */
export type RouteHandler<N extends RouteName> = (
  input: RouteInput<N>,
) => RouteResult<N> | Promise<RouteResult<N>>;

/** One handler per route of the wire table: a missing route is a type error. */
export type RouteHandlers = { [N in RouteName]: RouteHandler<N> };
