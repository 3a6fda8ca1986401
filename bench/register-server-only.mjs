// Lets benchmark processes import server modules outside Next.js: `import 'server-only'`
// throws unless the `react-server` condition is active, so it is mapped to the
// package's empty module, for ESM imports (a resolve hook) and for the CommonJS
// `require` that tsx compiles TypeScript to here. Load with
// `node --import ./bench/register-server-only.mjs` (before or after `--import tsx`).
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const emptyModulePath = fileURLToPath(new URL('../node_modules/server-only/empty.js', import.meta.url));

register('./server-only-hooks.mjs', import.meta.url);

const originalResolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveFilename(request, ...rest) {
  if (request === 'server-only') return emptyModulePath;
  return originalResolveFilename.call(this, request, ...rest);
};
