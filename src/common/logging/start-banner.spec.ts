import { hostedFormUrlPattern, readyLine, startBanner } from './start-banner';

describe('the start banner', () => {
  it('shows the admin URL, the generated token and where it is kept, the docs, the sandbox and the hosted form pattern', () => {
    const text = startBanner({
      port: 3000,
      startedInMs: 2345,
      generatedAdminToken: { token: 'f'.repeat(48), keptIn: 'data/admin-token' },
      sandboxUrl: 'http://127.0.0.1:41234',
    });
    expect(text).toContain('ready in 2.3 s');
    expect(text).toContain('http://localhost:3000/api/v1');
    expect(text).toContain(`Admin token  ${'f'.repeat(48)}`);
    expect(text).toContain('kept in data/admin-token');
    expect(text).toContain('http://localhost:3000/docs');
    expect(text).toContain('http://127.0.0.1:41234 ');
    expect(text).toContain(hostedFormUrlPattern('http://127.0.0.1:41234'));
    expect(text).toContain('NO REAL MONEY MOVES');
  });

  it('never prints a token the operator set, and has no sandbox lines with a real provider', () => {
    const text = startBanner({ port: 8080, startedInMs: 900 });
    expect(text).toContain('the value of ADMIN_TOKEN');
    expect(text).not.toContain('Sandbox');
    expect(text).not.toContain('hosted-form');
  });

  it('says the same as one log line for JSON logs, without any token', () => {
    expect(readyLine({ port: 3000, startedInMs: 2345.6, sandboxUrl: 'http://127.0.0.1:41234' })).toEqual({
      readyInMs: 2346,
      adminApi: 'http://localhost:3000/api/v1',
      apiDocs: 'http://localhost:3000/docs',
      health: 'http://localhost:3000/health/ready',
      sandbox: 'http://127.0.0.1:41234',
    });
  });
});
