import { CliUsageError } from './usage-error.js';

/** `--limit`, `--page` and `--all`, the same on every list command. */
export interface ListFlags {
  limit?: number | undefined;
  page?: number | undefined;
  all?: boolean | undefined;
}

/** One page as a list endpoint answered it, in a common shape. */
export interface FetchedPage<T> {
  items: T[];
  /** Total matching items the service reported. */
  total: number;
}

/** The items gathered for a list command, and what the service has beyond them. */
export interface CollectedList<T> {
  items: T[];
  total: number;
  /** A hint for people when more items exist than were shown; undefined otherwise. */
  hint?: string | undefined;
}

/** Items shown when no `--limit` is given. */
export const DEFAULT_LIST_LIMIT = 20;
const MAX_PAGE_SIZE = 100;

/**
 * Gathers a list the way every `aqm ... list` does. Without `--page`: fetches pages of up to 100
 * automatically until `--limit` items (default 20; every item with `--all`). With `--page P`:
 * exactly page P, of `--limit` items (1..100) per page, like the service's own paging.
 */
export async function collectList<T>(
  flags: ListFlags,
  fetchPage: (page: number, limit: number) => Promise<FetchedPage<T>>,
): Promise<CollectedList<T>> {
  if (flags.page !== undefined) {
    if (flags.all) throw new CliUsageError('--page and --all cannot be used together.');
    const limit = flags.limit ?? DEFAULT_LIST_LIMIT;
    if (limit > MAX_PAGE_SIZE)
      throw new CliUsageError(`--limit must be at most ${MAX_PAGE_SIZE} with --page.`);
    const { items, total } = await fetchPage(flags.page, limit);
    const pages = Math.max(1, Math.ceil(total / limit));
    const hint =
      flags.page < pages
        ? `Page ${flags.page} of ${pages} (${total} in all); next: --page ${flags.page + 1}`
        : undefined;
    return { items, total, hint };
  }
  const want = flags.all ? Number.POSITIVE_INFINITY : (flags.limit ?? DEFAULT_LIST_LIMIT);
  const pageSize = Math.min(MAX_PAGE_SIZE, want);
  const items: T[] = [];
  let total = 0;
  for (let page = 1; items.length < want; page++) {
    const fetched = await fetchPage(page, pageSize);
    total = fetched.total;
    items.push(...fetched.items.slice(0, want - items.length));
    if (fetched.items.length < pageSize || page * pageSize >= total) break;
  }
  const hint =
    total > items.length
      ? `Showing ${items.length} of ${total}; use --limit N or --all for more.`
      : undefined;
  return { items, total, hint };
}
