/**
 * Groups flattened, indexed attributes (`llm.input_messages.0.message.role`, `gen_ai.prompt.1.content`)
 * by index: one record per index, keyed by what follows `{prefix}{i}.`, in index order.
 * One pass over the keys; no regular expressions. `keys` are those of `attributes` (or those of
 * them that start with `prefix`), when the caller already has them listed (see `SpanView.keys`).
 */
export function groupIndexed(
  attributes: Readonly<Record<string, unknown>>,
  prefix: string,
  keys: readonly string[] = Object.keys(attributes),
): Record<string, unknown>[] {
  let groups: Map<number, Record<string, unknown>> | undefined;
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const dot = key.indexOf('.', prefix.length);
    if (dot <= prefix.length) continue;
    let index = 0;
    let valid = true;
    for (let i = prefix.length; i < dot; i += 1) {
      const code = key.charCodeAt(i);
      if (code < 48 || code > 57) {
        valid = false;
        break;
      }
      index = index * 10 + (code - 48);
    }
    if (!valid) continue;
    groups ??= new Map();
    let group = groups.get(index);
    if (group === undefined) {
      group = {};
      groups.set(index, group);
    }
    group[key.slice(dot + 1)] = attributes[key];
  }
  if (groups === undefined) return [];
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
}

/** Whether any of `keys` starts with `prefix` (cheaper than grouping when only presence matters). */
export function hasKeyWithPrefix(keys: readonly string[], prefix: string): boolean {
  for (const key of keys) if (key.startsWith(prefix)) return true;
  return false;
}
