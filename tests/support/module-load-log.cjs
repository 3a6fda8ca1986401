// Preloaded into a test server (`NODE_OPTIONS=--require …`): appends every module and
// chunk the process loads to the file TOOLGATE_MODULE_LOG names, so a test can tell
// what a server loaded.
const Module = require('node:module');
const { appendFileSync } = require('node:fs');

const logFile = process.env.TOOLGATE_MODULE_LOG;
const load = Module._load;
Module._load = function loadAndLog(request, ...rest) {
  if (logFile) appendFileSync(logFile, `${request}\n`);
  return load.call(this, request, ...rest);
};
