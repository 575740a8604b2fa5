#!/usr/bin/env node
/**
 * Writes test/support/test-durations.json, each file's seconds, which the longest-first sequencer uses to order the
 * next runs. The source is either a `jest --json --outputFile=<file>` report or jest's console output saved to a file
 * (its PASS/FAIL lines give the seconds of each file slower than slowTestThreshold; the others keep the sequencer's
 * default). Usage: node scripts/record-test-durations.js <report.json | jest-output.log>
 */
const fs = require('node:fs');
const path = require('node:path');

const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/record-test-durations.js <jest --json report | saved jest output>');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const text = fs.readFileSync(source, 'utf8');
const seconds = text.trimStart().startsWith('{') ? fromReport(JSON.parse(text)) : fromConsoleOutput(text);

/** The checkout the report was made in (any clone): the nearest folder above the file with a package.json. */
function projectRootOf(file) {
  let dir = path.dirname(file);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function fromReport(report) {
  const out = {};
  for (const result of report.testResults) {
    const file = path.relative(projectRootOf(result.name), result.name).split(path.sep).join('/');
    out[file] = Math.round((result.endTime - result.startTime) / 100) / 10;
  }
  return out;
}

function fromConsoleOutput(output) {
  const out = {};
  for (const match of output.matchAll(/^(?:PASS|FAIL) (\S+\.spec\.ts) \(([\d.]+) s\)/gm)) out[match[1]] = Number(match[2]);
  return out;
}

const sorted = Object.fromEntries(Object.entries(seconds).sort(([, a], [, b]) => b - a));
const out = path.join(root, 'test/support/test-durations.json');
fs.writeFileSync(out, JSON.stringify({ note: 'Seconds per test file from one run (only files over 30 s when read from jest output); see test/support/longest-first.sequencer.js', seconds: sorted }, null, 2) + '\n');
console.log(`${Object.keys(sorted).length} files recorded in ${path.relative(root, out)}`);
