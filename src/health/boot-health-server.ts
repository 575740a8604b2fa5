import { createServer, Server } from 'node:http';

const NOT_READY = {
  status: 'error',
  info: { process: { status: 'up' } },
  error: { database: { status: 'down', message: 'waiting for PostgreSQL' } },
  details: { process: { status: 'up' }, database: { status: 'down', message: 'waiting for PostgreSQL' } },
};

/**
 * What the daemon's port answers while it waits for its database at boot, before the application exists:
 * `/health/live` 200 (the process is up and must not be restarted for a database that is late), `/health/ready`
 * 503 in the readiness probe's own shape, anything else 503. Closed once the database answers, and the
 * application takes the port.
 */
export async function startBootHealthServer(port: number): Promise<{ close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const [status, body] =
      path === '/health/live'
        ? [200, { status: 'ok' }]
        : path === '/health/ready'
          ? [503, NOT_READY]
          : [503, { statusCode: 503, error: 'Service Unavailable', code: 'service_unavailable', message: 'The daemon is starting: it waits for PostgreSQL' }];
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
