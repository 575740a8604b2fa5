import { untilDatabaseAnswers } from './wait-for-database';

const shuttingDown = () => Object.assign(new Error('the database system is shutting down'), { code: '57P03' });

describe('untilDatabaseAnswers', () => {
  const logged = () => {
    const lines: string[] = [];
    return { lines, log: { warn: (_: Record<string, unknown>, message: string) => lines.push(message), info: (message: string) => lines.push(message) } };
  };

  it('waits while PostgreSQL shuts down or starts up, saying why and how long, then answers', async () => {
    const { lines, log } = logged();
    let attempts = 0;
    const answer = await untilDatabaseAnswers(
      async () => {
        attempts++;
        if (attempts === 1) throw shuttingDown();
        if (attempts === 2) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return 'migrated';
      },
      log,
      { firstDelayMs: 1 },
    );
    expect(answer).toBe('migrated');
    expect(lines).toEqual([
      'PostgreSQL cannot be reached (57P03: the database system is shutting down); waiting 1 ms before trying again (readiness answers 503 meanwhile)',
      'PostgreSQL cannot be reached (connect ECONNREFUSED 127.0.0.1:5432); waiting 2 ms before trying again (readiness answers 503 meanwhile)',
      'PostgreSQL answers after 3 attempts; starting',
    ]);
  });

  it('throws any other error at once', async () => {
    const { lines, log } = logged();
    const refused = Object.assign(new Error('password authentication failed for user "billing"'), { code: '28P01' });
    await expect(untilDatabaseAnswers(() => Promise.reject(refused), log, { firstDelayMs: 1 })).rejects.toBe(refused);
    expect(lines).toEqual([]);
  });

  it('gives up with the last error once the process is asked to stop', async () => {
    const { log } = logged();
    const error = shuttingDown();
    await expect(untilDatabaseAnswers(() => Promise.reject(error), log, { firstDelayMs: 1, stopping: () => true })).rejects.toBe(error);
  });
});
