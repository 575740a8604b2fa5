import { Client } from 'pg';

/**
 * One database per jest worker, copied from a migrated template (CREATE DATABASE … TEMPLATE copies files, so a worker's
 * database costs a fraction of a second instead of a migration run). Named after the template: `<template>_w<n>`.
 */
export function workerDatabases(templateUrl: string, workers: number) {
  const template = new URL(templateUrl);
  const templateName = decodeURIComponent(template.pathname.slice(1));
  const names = Array.from({ length: workers }, (_, i) => `${templateName}_w${i + 1}`);
  const urlOf = (name: string) => {
    const url = new URL(templateUrl);
    url.pathname = `/${encodeURIComponent(name)}`;
    return url.toString();
  };
  const withAdmin = async (work: (admin: Client) => Promise<void>) => {
    const admin = new Client({ connectionString: urlOf('postgres') });
    await admin.connect();
    try {
      await work(admin);
    } finally {
      await admin.end();
    }
  };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  // A copy needs the template to itself; the migration run's connections may still be closing on the server.
  const copyTemplate = async (admin: Client, name: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(templateName)}`);
        return;
      } catch (error) {
        const templateBusy = (error as { code?: string }).code === '55006';
        if (!templateBusy || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  return {
    /** Makes (again, when a stopped run left them) each worker's database; answers their URLs in worker order. */
    async create(): Promise<string[]> {
      await withAdmin(async (admin) => {
        for (const name of names) {
          await admin.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
          await copyTemplate(admin, name);
        }
      });
      return names.map(urlOf);
    },
    async drop(): Promise<void> {
      await withAdmin(async (admin) => {
        for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
      });
    },
  };
}

/** The database of the jest worker this code runs in (JEST_WORKER_ID counts from 1; a run in band is worker 1). */
export function databaseOfThisWorker(): string | undefined {
  const urls = process.env.TEST_DB_URLS;
  if (!urls) return undefined;
  const list = JSON.parse(urls) as string[];
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return list[(worker - 1) % list.length];
}
