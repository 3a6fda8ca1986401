#!/usr/bin/env node
// Installs the engine as a user would get it, from `npm pack`'s tarball, into a temporary
// folder beside a copy of examples/ai-sdk-app, and runs the example there (its model is a
// scripted mock: no network but the registry's, for the install). A name missing from the
// package's exports or a file left out of its `files` fails here, not in a user's app.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'toolgate-engine-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
try {
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--pack-destination', folder, ...quiet], {
      cwd: join(root, 'packages/engine'),
      encoding: 'utf8',
    }),
  );
  console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes`);
  const example = join(root, 'examples/ai-sdk-app');
  const manifest = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8'));
  manifest.dependencies['@toolgate/engine'] = `file:./${packed.filename}`;
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  copyFileSync(join(example, 'main.ts'), join(folder, 'main.ts'));
  // The example's versions are the app's, already in npm's cache after `npm ci`.
  execFileSync(npm, ['install', '--prefer-offline', '--ignore-scripts', ...quiet], {
    cwd: folder,
    stdio: 'inherit',
  });
  // The engine ships TypeScript source: run it through the repo's tsx, as a TypeScript app would be.
  execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'main.ts'], {
    cwd: folder,
    stdio: 'inherit',
  });
  // Every entry the package advertises loads from the tarball, but those whose optional peer
  // (redis, vitest) the example does not install.
  const { exports } = JSON.parse(readFileSync(join(root, 'packages/engine/package.json'), 'utf8'));
  const entries = Object.keys(exports)
    .filter((entry) => entry !== './redis' && entry !== './test')
    .map((entry) => `@toolgate/engine${entry.slice(1)}`);
  writeFileSync(
    join(folder, 'entries.ts'),
    `for (const entry of ${JSON.stringify(entries)}) {
  console.log(\`\${entry}: \${Object.keys(await import(entry)).length} values\`);
}
`,
  );
  execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'entries.ts'], {
    cwd: folder,
    stdio: 'inherit',
  });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
