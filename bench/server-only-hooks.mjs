// Module resolve hook: `server-only` → `server-only/empty.js`; everything else is untouched.
// The package's `exports` hide empty.js, so it is addressed by path from the repo root.
const emptyModule = new URL('../node_modules/server-only/empty.js', import.meta.url).href;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'server-only') return { url: emptyModule, shortCircuit: true };
  return nextResolve(specifier, context);
}
