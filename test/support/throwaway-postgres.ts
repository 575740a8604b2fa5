import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './daemon';

/**
 * A PostgreSQL cluster of its own for a test that stops and starts the database: made with the machine's
 * PostgreSQL binaries in a temporary folder, on a free loopback port. Never the shared server other tests use.
 */
export interface ThrowawayPostgres {
  url: string;
  /** Stops the server at once, as a crash or an outage would (`pg_ctl stop -m immediate`). */
  stop(): void;
  start(): void;
  destroy(): void;
  /** The URL of another database of this cluster. */
  databaseUrl(name: string): string;
  /**
   * A backup of `database` into a file of this cluster's folder, taken with pg_dump while clients keep working (one
   * consistent snapshot, as a nightly backup is). Answers the file.
   */
  dump(database: string, name: string): string;
  /** A new database made from a backup file (pg_restore): what restoring a backup, or promoting an older standby, gives. */
  restore(file: string, database: string): Promise<void>;
}

/** The folder of the machine's PostgreSQL server binaries, or undefined when there are none. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql: install the postgresql package');
  const dir = mkdtempSync(join(tmpdir(), 'billing-pg-'));
  const port = await freePort();
  // initdb refuses to run as root: then the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // fsync=off only risks what an operating-system crash would lose, and these tests stop the server, not the machine.
  // Commits stay synchronous: with them asynchronous, an immediate stop loses commits the clients were told about,
  // which no production server does, and a test that counts the rows it saw before the stop would find some gone.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  const databaseUrl = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const client = (tool: string, args: string[]) => execFileSync(join(bin, tool), args, { stdio: 'pipe', timeout: 120_000 });
  const cluster: ThrowawayPostgres = {
    url: databaseUrl('billing'),
    databaseUrl,
    dump: (database, name) => {
      const file = join(dir, `${name}.dump`);
      client('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${databaseUrl(database)}`]);
      return file;
    },
    restore: async (file, database) => {
      const admin = new Client({ connectionString: databaseUrl('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database}"`);
      } finally {
        await admin.end();
      }
      client('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${databaseUrl(database)}`, file]);
    },
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  const admin = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE billing');
  await admin.end();
  return cluster;
}
