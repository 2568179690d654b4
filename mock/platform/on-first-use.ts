// A module a mode may never use, imported the first time it is asked for and kept: `import()` once, the same
// promise after (issue 42: a mode loads only what it uses).

/** `load` on the first call, its promise on every later one. */
export function onFirstUse<M>(load: () => Promise<M>): () => Promise<M> {
  let loaded: Promise<M> | undefined;
  return () => (loaded ??= load());
}
