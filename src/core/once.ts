/**
 * A value built on first use and kept. zod schemas are built this way in modules that activation
 * loads: building one costs 0.1–1 ms (zod 4 sets up each schema's internals eagerly), and the
 * schemas built at load took activation from 11 to 41 ms (issue 39). Built on first use, a schema
 * costs only the windows and runs that validate with it.
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/**
 * `cache`'s value for `key`, computed on first use and kept; the cache is emptied when it holds
 * `max` entries. For inputs that repeat (names, short strings) whose result takes work to find.
 */
export function remembered<K, V>(cache: Map<K, V>, key: K, max: number, compute: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(key, value);
  }
  return value;
}
