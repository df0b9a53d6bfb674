/**
 * Appends to the list a key holds, in place. Copying the list on every append
 * (`m.set(k, [...(m.get(k) ?? []), x])`) made grouping n entries of one file or kind O(n²).
 */
export function append<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}
