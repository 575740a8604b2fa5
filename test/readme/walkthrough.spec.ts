import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../docs/markdown';
import { freePort } from '../support/daemon';
import { waitForStatus } from '../support/wait';

const SECTION = '## Five minutes with the sandbox';

/** The shell blocks of the README's walkthrough, in order, as written (a block inside a list item loses its indent). */
function walkthroughBlocks(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const blocks: string[] = [];
  for (const match of readme.slice(start, end).matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1].length;
    blocks.push(match[2].split('\n').map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n'));
  }
  return blocks;
}

interface Promise_ {
  command: string;
  printed: string;
}

/**
 * The walkthrough's commands, run the way a newcomer runs them: the daemon started as the README says (embedded
 * database, built-in sandbox, test clock) in one process, and every other shell block of the section, as written,
 * in one bash session in the folder that holds `data/`. Each command marked `# "value"` must print exactly that.
 */
describe("the README's walkthrough, run as written", () => {
  const folder = mkdtempSync(join(tmpdir(), 'readme-walkthrough-'));
  const dataDir = join(folder, 'data');
  let daemon: ChildProcess | undefined;

  afterAll(async () => {
    if (daemon?.pid !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      process.kill(-daemon.pid, 'SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('prints what the README promises, from a plan to a declined renewal, a new card and recovery', async () => {
    const [startBlock, ...blocks] = walkthroughBlocks();
    expect(startBlock.trim()).toBe('TEST_CLOCK=true npm start');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const tool of ['curl', 'jq']) {
      try {
        execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      } catch {
        throw new Error(`The README's walkthrough needs ${tool}: install it (apt-get install ${tool})`);
      }
    }

    // The daemon, started by the README's own line in the repository (PORT and DATA_DIR only keep it off a developer's).
    const port = await freePort();
    mkdirSync(dataDir);
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? folder, PORT: String(port), DATA_DIR: dataDir };
    daemon = spawn('bash', ['-c', startBlock], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let daemonErr = '';
    daemon.stderr?.on('data', (d: Buffer) => (daemonErr = (daemonErr + d.toString()).slice(-20_000)));
    try {
      await waitForStatus(`http://127.0.0.1:${port}/health/ready`, 200, 240_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\ndaemon stderr:\n${daemonErr}`);
    }

    // The other blocks, in one bash session; a marker before each promised answer ties it to its command.
    const promises: Promise_[] = [];
    const script = blocks
      .join('\n')
      .split('\n')
      .flatMap((line) => {
        const promised = /^(?!\s*#)(.*\S)\s+#\s*("[^"]*")\s*$/.exec(line);
        if (!promised) return [line];
        promises.push({ command: promised[1], printed: promised[2] });
        return [`echo '@@ promise ${promises.length - 1}'`, line];
      })
      .join('\n');
    let output: string;
    try {
      output = execFileSync('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: folder, env, encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const failure = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`The walkthrough stopped: ${failure.message}\nstdout:\n${failure.stdout}\nstderr:\n${failure.stderr}`);
    }

    const lines = output.split('\n');
    const printed = promises.map((promise, index) => ({ command: promise.command, printed: lines[lines.indexOf(`@@ promise ${index}`) + 1] }));
    expect(printed).toEqual(promises);
    expect(promises.map((p) => p.printed)).toEqual(['"ready"', '"past_due"', '"retrying"', '"active"']);
  }, 480_000);
});
