// Summarizes a V8 .cpuprofile (from `node --cpu-prof`, e.g. `npm run bench -- --only=approval-resume --cpu-prof`):
// self time by function, inclusive time by function, self time by kind of code, and each sample charged
// to the innermost module of ours on its stack. Frames in the production build (`.next-bench`) are read
// through the build's source maps, so they carry their source file, line and name.
//
// Usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top=25] [--windows=<file.json> --window=<name>] [--focus=<regex>]
//   --windows: a JSON object of named lists of [startMicros, endMicros] spans of the monotonic clock
//              (what `process.hrtime` reads, the clock of the profile's timestamps); with --window=<name>
//              only the samples inside that list's spans count (bench/cases/approval-resume.ts writes one).
//   --focus:   also lists the samples whose own function matches <regex> (e.g. `executeQuery`) by the
//              innermost function of ours on their stack: which of our calls spend that time.
// (Node writes one file per thread; the busy one is the main thread.)
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const positional = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const flag = (name) =>
  process.argv
    .slice(2)
    .find((argument) => argument.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
const [file, topArgument = '25'] = positional;
const windowsFile = flag('windows');
const windowName = flag('window');
const focus = flag('focus') === undefined ? undefined : new RegExp(flag('focus'));
if (
  file === undefined ||
  Number.isNaN(Number(topArgument)) ||
  (windowsFile === undefined) !== (windowName === undefined)
) {
  console.error(
    'Usage: node bench/cpu-profile-summary.mjs <file.cpuprofile> [top=25] [--windows=<file.json> --window=<name>]',
  );
  process.exit(2);
}
const top = Number(topArgument);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const parentById = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentById.set(child, node.id);

// ---- source maps of the build
const mapByUrl = new Map();
function sourceMapOf(url) {
  if (!url.includes('/.next') || !url.endsWith('.js')) return undefined;
  if (mapByUrl.has(url)) return mapByUrl.get(url);
  let entry;
  try {
    const path = url.startsWith('file:') ? fileURLToPath(url) : url;
    if (existsSync(`${path}.map`)) {
      const payload = JSON.parse(readFileSync(`${path}.map`, 'utf8'));
      const contentBySource = new Map(
        (payload.sources ?? []).map((source, i) => [source, payload.sourcesContent?.[i]]),
      );
      entry = { map: new SourceMap(payload), contentBySource };
    }
  } catch {
    entry = undefined;
  }
  mapByUrl.set(url, entry);
  return entry;
}

/** `../../../lib/x.ts`, `[project]/node_modules/y/z.js` → `lib/x.ts`, `node_modules/y/z.js`. */
function tidySource(source) {
  return source
    .replace(/^.*\[project\]\//, '')
    .replace(/^(\.\.\/)+/, '')
    .replace(/^turbopack:\/\/\//, '')
    .replace(/^file:\/\/.*?\/(lib|app|node_modules|components)\//, '$1/');
}

// A function's name from its first source line, when the map names none.
function nameFromLine(text) {
  if (text === undefined) return undefined;
  return (
    text.match(/function\s*\*?\s*([\w$]+)/)?.[1] ??
    text.match(/([\w$]+)\s*[:=]\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>/)?.[1] ??
    text.match(/^\s*(?:(?:public|private|static|async|get|set)\s+)*([\w$]+)\s*\(/)?.[1]
  );
}

const frameByNodeId = new Map();
/** Where a profile node's function comes from: { name, source, line, kind }. */
function frameOf(id) {
  const cached = frameByNodeId.get(id);
  if (cached !== undefined) return cached;
  const { callFrame } = nodeById.get(id);
  let name = callFrame.functionName;
  let source = callFrame.url;
  let line = callFrame.lineNumber + 1;
  const mapped = sourceMapOf(callFrame.url);
  if (mapped !== undefined) {
    const entry = mapped.map.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    if (entry?.originalSource !== undefined) {
      const text = mapped.contentBySource.get(entry.originalSource)?.split('\n')[entry.originalLine];
      name = entry.name ?? nameFromLine(text) ?? name;
      source = tidySource(entry.originalSource);
      line = entry.originalLine + 1;
    }
  }
  source = source.replace(/^file:\/\//, '').replace(/.*node_modules\//, 'node_modules/');
  const frame = { name: name || '(anonymous)', source, line, kind: kindOf(source, callFrame.functionName) };
  frameByNodeId.set(id, frame);
  return frame;
}

/** What kind of code a source is: ours, Next, the database layer, the AI SDK, node, … */
function kindOf(source, functionName) {
  if (source === '') return functionName; // (garbage collector), (program), (idle), (root)
  const pkg = source.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1];
  if (pkg === undefined) {
    if (/^(lib|app|components)\/|^(proxy|instrumentation[\w-]*)\.ts$/.test(source)) return 'ours';
    if (source.startsWith('node:')) return 'node';
    if (source.includes('/.next')) return 'build (unmapped)';
    return 'other';
  }
  if (pkg === 'next' || pkg === 'react' || pkg === 'react-dom') return 'next';
  if (['better-sqlite3', 'kysely', 'pg', 'pg-protocol', 'postgres'].includes(pkg)) return 'database';
  if (pkg === 'ai' || pkg.startsWith('@ai-sdk/')) return 'ai sdk';
  return pkg;
}

const label = ({ name, source, line }) => (source === '' ? name : `${name} ${source}:${line}`);

// ---- which samples count
let windows;
if (windowsFile !== undefined) {
  const all = JSON.parse(readFileSync(windowsFile, 'utf8'));
  windows = all[windowName];
  if (!Array.isArray(windows)) {
    console.error(
      `${windowsFile} has no window list named ${windowName} (it has: ${Object.keys(all).join(', ')})`,
    );
    process.exit(2);
  }
  windows = [...windows].sort((a, b) => a[0] - b[0]);
}
function inWindow(time) {
  if (windows === undefined) return true;
  // Few windows (tens): a linear scan is fine.
  return windows.some(([start, end]) => time >= start && time <= end);
}

const selfByFunction = new Map();
const selfByKind = new Map();
const inclusiveByFunction = new Map();
const inclusiveByKind = new Map();
const chargedToOurs = new Map();
const focusedByOurs = new Map();
let totalMicros = 0;
let busyMicros = 0;
const add = (map, key, micros) => map.set(key, (map.get(key) ?? 0) + micros);

let time = profile.startTime;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index + 1] ?? 0;
  time += profile.timeDeltas[index] ?? 0;
  if (!inWindow(time)) return;
  const frame = frameOf(id);
  totalMicros += micros;
  if (frame.name === '(idle)') return;
  busyMicros += micros;
  add(selfByFunction, label(frame), micros);
  add(selfByKind, frame.kind, micros);
  const seenFunctions = new Set();
  const seenKinds = new Set();
  let charged;
  let chargedFunction;
  for (let at = id; at !== undefined; at = parentById.get(at)) {
    const outer = frameOf(at);
    if (outer.name === '(root)') break;
    seenFunctions.add(label(outer));
    seenKinds.add(outer.kind);
    if (charged === undefined && outer.kind === 'ours') {
      charged = `${outer.source}`;
      chargedFunction = label(outer);
    }
  }
  if (focus?.test(label(frame))) add(focusedByOurs, chargedFunction ?? '(not under our code)', micros);
  for (const key of seenFunctions) add(inclusiveByFunction, key, micros);
  for (const key of seenKinds) add(inclusiveByKind, key, micros);
  add(chargedToOurs, charged ?? `(not under our code) ${frame.kind}`, micros);
});

function print(title, map, count) {
  console.log(`--- ${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    const share = `${((100 * micros) / Math.max(1, busyMicros)).toFixed(1)}%`;
    console.log(`${(micros / 1000).toFixed(1).padStart(8)} ms ${share.padStart(6)}  ${key.slice(0, 150)}`);
  }
}

const windowText =
  windows === undefined
    ? ''
    : `, inside ${windows.length} "${windowName}" windows (${(windows.reduce((sum, [s, e]) => sum + e - s, 0) / 1000).toFixed(0)} ms of wall time; busy per window ${(busyMicros / 1000 / Math.max(1, windows.length)).toFixed(2)} ms)`;
console.log(
  `sampled ${(totalMicros / 1000).toFixed(0)} ms, busy ${(busyMicros / 1000).toFixed(0)} ms${windowText}; shares are of busy time`,
);
print('self time by function', selfByFunction, top);
print('self time by kind of code', selfByKind, 15);
print('inclusive time by function (on the stack)', inclusiveByFunction, top);
print('inclusive time by kind of code (on the stack)', inclusiveByKind, 15);
print('each sample charged to the innermost module of ours on its stack', chargedToOurs, top);
if (focus !== undefined) print(`samples in ${focus} by the innermost function of ours`, focusedByOurs, top);
