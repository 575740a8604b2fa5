import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOT_STATEMENTS, hotStatementTexts, HotStatementName } from '../../src/database/hot-statements';
import type { SandboxHandle } from '../../src/sandbox/sandbox-server';
import { createPlan, createReadyCustomers, Engine, listCharges, setClock, startEngine, subscribeAll } from '../billing/support/billing-fixtures';
import { T0 } from '../billing/support/exactly-once';
import { SandboxClient, startTestSandbox } from '../support/sandbox-client';
import { resetDatabase, testDatabaseUrl } from '../support/test-database';

const DIR = join(__dirname, '..', '..', 'sql', 'hot');
const UPDATE = process.env.UPDATE_HOT_SQL === '1';

/** One statement as its committed file holds it: its name and purpose, then its text exactly as it is sent. */
const fileText = (name: HotStatementName, text: string) => `-- ${name}: ${HOT_STATEMENTS[name]}\n${text.trim()}\n`;

/**
 * The hot path's statements are committed as sql/hot/<name>.sql (see src/database/hot-statements.ts): a charge is
 * worked to its success, and every statement of the catalogue must be the one its file holds. A change to one shows
 * in review as a change to its file; run with UPDATE_HOT_SQL=1 to write the files anew.
 */
describe('the hot-statement catalogue', () => {
  let sandboxHandle: SandboxHandle;
  let sandbox: SandboxClient;
  let engine: Engine;

  beforeAll(async () => {
    await resetDatabase();
    sandboxHandle = await startTestSandbox();
    sandbox = new SandboxClient(sandboxHandle.url);
    engine = await startEngine(testDatabaseUrl(), sandboxHandle.url);
    await setClock(engine, T0);
    const plan = await createPlan(engine);
    const [customerId] = await createReadyCustomers(engine, sandbox, 1);
    await subscribeAll(engine, [customerId], plan.id, T0);
    await engine.runPass(1);
    expect((await listCharges(engine)).map((c) => c.status)).toEqual(['succeeded']);
  });

  afterAll(async () => {
    await engine?.close();
    await sandbox?.close();
    await sandboxHandle?.close();
  });

  it('matches the committed SQL file of every statement the hot path runs, and has no file for a statement it does not', () => {
    const names = Object.keys(HOT_STATEMENTS) as HotStatementName[];
    const texts = hotStatementTexts();
    expect(names.filter((name) => !texts.has(name))).toEqual([]);
    for (const name of names) {
      const path = join(DIR, `${name}.sql`);
      const expected = fileText(name, texts.get(name) as string);
      if (UPDATE) writeFileSync(path, expected);
      expect({ name, sql: existsSync(path) ? readFileSync(path, 'utf8') : '(no file)' }).toEqual({ name, sql: expected });
    }
    const stale = readdirSync(DIR).filter((file) => !names.includes(file.replace(/\.sql$/, '') as HotStatementName));
    if (UPDATE) stale.forEach((file) => unlinkSync(join(DIR, file)));
    else expect(stale).toEqual([]);
  });
});
