import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { COMMITTED_DOCUMENT_PATH } from '../../src/common/api-docs/api-description';

const ROOT = join(__dirname, '..', '..');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe('redocly lint (the recommended rules, redocly.yaml)', () => {
  it('finds no error and no warning in docs/openapi.json beyond the exceptions .redocly.lint-ignore.yaml explains', () => {
    let output: string;
    try {
      output = execFileSync(process.execPath, [join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', COMMITTED_DOCUMENT_PATH, '--format=json'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      });
    } catch (e) {
      // It exits 1 when it finds an error; its report is on stdout all the same.
      output = (e as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as LintReport;
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect({ errors: report.totals.errors, warnings: report.totals.warnings, problems }).toEqual({ errors: 0, warnings: 0, problems: [] });
  }, 60_000);
});
