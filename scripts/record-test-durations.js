#!/usr/bin/env node
/**
 * Writes test/support/test-durations.json from a `jest --json --outputFile=<file>` report: each file's seconds,
 * which the longest-first sequencer uses to order the next runs. Usage: node scripts/record-test-durations.js <report>
 */
const fs = require('node:fs');
const path = require('node:path');

const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: node scripts/record-test-durations.js <jest --json report>');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const root = path.resolve(__dirname, '..');
const seconds = {};
for (const result of report.testResults) {
  const file = path.relative(projectRootOf(result.name), result.name).split(path.sep).join('/');
  seconds[file] = Math.round((result.endTime - result.startTime) / 100) / 10;
}
/** The checkout the report was made in (any clone): the nearest folder above the file with a package.json. */
function projectRootOf(file) {
  let dir = path.dirname(file);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const sorted = Object.fromEntries(Object.entries(seconds).sort(([, a], [, b]) => b - a));
const out = path.join(root, 'test/support/test-durations.json');
fs.writeFileSync(out, JSON.stringify({ note: 'Seconds per test file from one run; see test/support/longest-first.sequencer.js', seconds: sorted }, null, 2) + '\n');
console.log(`${Object.keys(sorted).length} files recorded in ${path.relative(root, out)}`);
