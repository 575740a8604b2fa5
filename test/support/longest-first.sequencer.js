const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Runs the files that took longest first, by the durations recorded in test-durations.json, so the workers finish
 * together instead of one of them starting a two-minute file when the others are done. Jest's own order needs its
 * cache of earlier runs, which a fresh clone (CI) does not have, and falls back to file size, a poor guess here:
 * the longest files are short scenarios that wait on processes. scripts/record-test-durations.js writes the record
 * from a `jest --json` report (or from jest's console output, which names the seconds of each file over 30 s).
 */
class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    return sortLongestFirst(tests, readDurations(), (test) => fs.statSync(test.path).size);
  }
}

/**
 * A file with no record counts as UNRECORDED_SECONDS: most files take a few seconds, and only the long ones are worth
 * recording. Paths are relative to rootDir; among equal durations the larger file first.
 */
const UNRECORDED_SECONDS = 10;

function sortLongestFirst(tests, recordedSeconds, sizeOf) {
  const durationOf = (test) => recordedSeconds[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')] ?? UNRECORDED_SECONDS;
  return [...tests].sort((a, b) => durationOf(b) - durationOf(a) || sizeOf(b) - sizeOf(a));
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
