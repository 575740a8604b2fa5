#!/usr/bin/env node
'use strict';
// `npm start` (and `npm run sandbox`) compile only when dist/ is missing or older than what it is built from, so a
// restart does not pay for the compiler. A stamp written after each build records when that build began: any
// source changed since then (even during the build) makes the next start compile again.
const { execFileSync } = require('node:child_process');
const { readdirSync, statSync, writeFileSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = [join(root, 'src'), join(root, 'console'), join(root, 'docs', 'openapi.json'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), join(root, 'package.json')];

/** What the build itself writes among its inputs (the console's API types, made from docs/openapi.json), and its folder. */
const generatedFile = join(root, 'console', 'src', 'api', 'openapi.gen.ts');
const generatedDir = join(root, 'console', 'src', 'api');

/** Newest change under `path`: files, and directories too (a deleted or renamed file changes its directory). */
function newestChange(path) {
  if (path === generatedFile) return -Infinity;
  const info = statSync(path);
  let newest = path === generatedDir ? -Infinity : info.mtimeMs;
  if (info.isDirectory()) {
    for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

function builtAt() {
  try {
    statSync(join(root, 'dist', 'main.js'));
    return statSync(stamp).mtimeMs;
  } catch {
    return -Infinity;
  }
}

const sourcesChangedAt = Math.max(...inputs.map(newestChange));
if (sourcesChangedAt < builtAt()) process.exit(0);

const startedAt = new Date();
// On stderr, like the compiler's own output: stdout is the daemon's, JSON lines when it is not a terminal.
console.error('Compiling (dist/ is missing or older than the sources)...');
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 2, 2] });
// The operator console (dist/public/console), as `npm run build` makes it.
execFileSync('npm', ['run', '--silent', 'console:build'], { cwd: root, stdio: ['ignore', 2, 2] });
writeFileSync(stamp, '');
utimesSync(stamp, startedAt, startedAt);
