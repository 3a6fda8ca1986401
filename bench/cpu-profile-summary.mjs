// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package.
// Usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top=25]
// (Node writes one file per thread; the busy one is the main thread.)
// To profile the app server in a benchmark, pass `nodeArguments: ['--cpu-prof', '--cpu-prof-dir=…']`
// to `startApp` in bench/support/next-app.ts (NODE_OPTIONS refuses --cpu-prof).
import { readFileSync } from 'node:fs';

const [file, topArgument = '25'] = process.argv.slice(2);
if (file === undefined || Number.isNaN(Number(topArgument))) {
  console.error('Usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top=25]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));

function functionLabel({ functionName, url, lineNumber }) {
  const where = url.replace(/.*node_modules\//, '').replace(/.*\.next-bench\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber}`;
}

function packageLabel({ functionName, url }) {
  const fromPackage = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1];
  if (fromPackage) return fromPackage;
  if (url.includes('.next-bench')) return 'app bundle';
  return url ? `node ${url.split('/').at(-1)}` : functionName;
}

const microsByFunction = new Map();
const microsByPackage = new Map();
let totalMicros = 0;
profile.samples.forEach((id, index) => {
  const { callFrame } = nodeById.get(id);
  const micros = profile.timeDeltas[index] ?? 0;
  totalMicros += micros;
  for (const [map, key] of [
    [microsByFunction, functionLabel(callFrame)],
    [microsByPackage, packageLabel(callFrame)],
  ]) {
    map.set(key, (map.get(key) ?? 0) + micros);
  }
});

function print(title, map, top) {
  console.log(`--- ${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const share = `${((100 * micros) / totalMicros).toFixed(1)}%`;
    console.log(`${(micros / 1000).toFixed(1).padStart(8)} ms ${share.padStart(6)}  ${key.slice(0, 150)}`);
  }
}

console.log(`total ${(totalMicros / 1000).toFixed(0)} ms`);
print('self time by function', microsByFunction, Number(topArgument));
print('self time by package', microsByPackage, 15);
