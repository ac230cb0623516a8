/** One page of any paginated list, reduced to what paging needs. */
export interface PageSlice<T> {
  items: T[];
  /** Page size the service applied (falls back to the requested one). */
  limit: number;
  /** Total number of matching items across all pages. */
  total: number;
}

/**
 * Yields every item of a paginated list, page after page from `firstPage`, fetching the next
 * page only when the previous one is used up. Stops after a page with fewer than `limit` items,
 * once `total` items are covered, or on an empty page (so a misbehaving service cannot loop it).
 */
export async function* autoPage<T>(
  firstPage: number,
  fetchPage: (page: number) => Promise<PageSlice<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = firstPage; ; page++) {
    const slice = await fetchPage(page);
    yield* slice.items;
    if (slice.items.length === 0 || slice.items.length < slice.limit || page * slice.limit >= slice.total)
      return;
  }
}
