// A value built on first use, then kept. Schemas that only some requests need (the idea board's, research's, the
// API description's) are declared this way so that building them is not part of every isolate's startup.
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
