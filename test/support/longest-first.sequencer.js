const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Runs the files that took longest first, by the durations recorded in test-durations.json, so the workers finish
 * together instead of one of them starting a two-minute file when the others are done. Jest's own order needs its
 * cache of earlier runs, which a fresh clone (CI) does not have, and falls back to file size, a poor guess here:
 * the longest files are short scenarios that wait on processes. Files not in the record (new ones) run first, by
 * size, so a new long file never ends the run. scripts/record-test-durations.js writes the record from a `jest --json` report.
 */
class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    return sortLongestFirst(tests, readDurations(), (test) => fs.statSync(test.path).size);
  }
}

/** New files (no record) first, largest first; then recorded ones, longest first. Paths are relative to rootDir. */
function sortLongestFirst(tests, recordedSeconds, sizeOf) {
  const durationOf = (test) => recordedSeconds[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')];
  return [...tests].sort((a, b) => {
    const da = durationOf(a);
    const db = durationOf(b);
    if ((da === undefined) !== (db === undefined)) return da === undefined ? -1 : 1;
    if (da === undefined) return sizeOf(b) - sizeOf(a);
    return db - da;
  });
}

function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'test-durations.json'), 'utf8')).seconds;
  } catch {
    return {};
  }
}

module.exports = LongestFirstSequencer;
module.exports.sortLongestFirst = sortLongestFirst;
