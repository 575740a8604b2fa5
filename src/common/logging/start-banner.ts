/** What an operator needs once the daemon is up, printed as one block so it is not lost among log lines. */
export interface StartInfo {
  port: number;
  startedInMs: number;
  /** Only when ADMIN_TOKEN was not set: the token made for this daemon. */
  generatedAdminToken?: { token: string; keptIn?: string };
  /** Only with the built-in sandbox. */
  sandboxUrl?: string;
}

export function hostedFormUrlPattern(sandboxUrl: string): string {
  return `${sandboxUrl}/sandbox/hosted-form?customerID=<providerCustomerId>&customerAccessToken=<customerAccessToken>`;
}

export function startBanner(info: StartInfo): string {
  const base = `http://localhost:${info.port}`;
  const rows: [string, string][] = [['Admin API', `${base}/api/v1`]];
  if (info.generatedAdminToken) {
    const { token, keptIn } = info.generatedAdminToken;
    rows.push(['Admin token', token]);
    rows.push(['', keptIn ? `(ADMIN_TOKEN is not set: this token is kept in ${keptIn} and reused at every start)` : '(ADMIN_TOKEN is not set: made for this run)']);
    rows.push(['Try it', `curl -H "Authorization: Bearer ${token}" ${base}/api/v1/plans`]);
  } else {
    rows.push(['Admin token', 'the value of ADMIN_TOKEN']);
  }
  rows.push(['API docs', `${base}/docs (OpenAPI document: ${base}/openapi.json)`]);
  rows.push(['Health', `${base}/health/ready, metrics: ${base}/metrics`]);
  if (info.sandboxUrl) {
    rows.push(['Sandbox', `${info.sandboxUrl} (the built-in provider simulator: NO REAL MONEY MOVES)`]);
    rows.push(['Hosted form', hostedFormUrlPattern(info.sandboxUrl)]);
    rows.push(['', '(each customer answer carries its own link as hostedFormUrl)']);
  }
  const rule = '='.repeat(78);
  const title = `Billing daemon ready in ${(info.startedInMs / 1000).toFixed(1)} s`;
  const body = rows.map(([label, value]) => `  ${label.padEnd(12)} ${value}`);
  return ['', rule, `  ${title}`, rule, ...body, rule, ''].join('\n') + '\n';
}

/** What the block says, as the fields of one log line (never the token): for logs that are JSON lines. */
export function readyLine(info: Omit<StartInfo, 'generatedAdminToken'>): Record<string, unknown> {
  const base = `http://localhost:${info.port}`;
  return {
    readyInMs: Math.round(info.startedInMs),
    adminApi: `${base}/api/v1`,
    apiDocs: `${base}/docs`,
    health: `${base}/health/ready`,
    ...(info.sandboxUrl && { sandbox: info.sandboxUrl }),
  };
}
