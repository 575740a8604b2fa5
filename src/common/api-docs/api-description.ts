import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { withExamplesAndDescriptions } from './complete-document';
import { asOpenApi31 } from './openapi-3-1';
import { withSharedErrorResponses } from './shared-responses';

/** Where the API description is served; both are public and hold no data. */
export const API_DOCS_PATH = '/docs';
export const API_DOCUMENT_PATH = '/openapi.json';

const ADMIN_TOKEN_SCHEME = 'adminToken';

/** The committed copy of the document (`npm run openapi` writes it; a test keeps it in step with the code). */
export const COMMITTED_DOCUMENT_PATH = 'docs/openapi.json';

/** The document as committed: two-space JSON and a final newline, so diffs stay readable. */
export function serializeApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

const DESCRIPTION = [
  'Admin API of the recurring card billing and card payout daemon.',
  'Every `/api/v1` route needs `Authorization: Bearer <ADMIN_TOKEN>` (every scope) or `Bearer <API key>` holding the scope the operation names (`x-scope`; `write` implies `read`, `admin` every scope); `/health/live`, `/health/ready` and `/metrics` need none.',
  'Requests are limited per credential across every replica (API_RATE_LIMIT): over it, 429 `rate_limited` with `Retry-After`, and nothing done.',
  'Identifiers are UUIDs, timestamps ISO 8601 in UTC, money an integer amount in minor units with an ISO 4217 currency.',
  'Lists take `limit` (1..200, default 50) and `cursor`, and answer `{ items, nextCursor }`, newest first.',
  'Every POST takes an optional `Idempotency-Key`. Every error answer carries a stable `code` (see the `Error` schema); a refused request changes nothing.',
].join('\n\n');

/** The OpenAPI 3.1 document of every route of the app, built from the controllers and DTOs themselves. */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Recurring billing daemon: admin API')
    .setDescription(DESCRIPTION)
    .setVersion('1.1')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative: the daemon that serves this document (Swagger UI's "Try it out" calls it). A generated client
    // sets its own base URL: the daemon's address, port PORT (3000 by default).
    .addServer('/', 'The daemon serving this document')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The ADMIN_TOKEN the daemon was started with (every scope), or an API key (`bk_…`) with the scopes it was made with.' }, ADMIN_TOKEN_SCHEME)
    // Deny by default, as the guard does: every operation needs the token unless it says otherwise.
    .addSecurityRequirements(ADMIN_TOKEN_SCHEME)
    .addTag('Plans', 'What a subscription bills each period. A new price is a new plan.')
    .addTag('Customers', 'Payers at the provider, and the cards they bind.')
    .addTag('Subscriptions', 'A customer on a plan: periods, trials, pauses, cancellation and its audit trail.')
    .addTag('Charges', 'One charge per billing period, with every payment attempt.')
    .addTag('Billing', 'A billing pass on demand.')
    .addTag('Payouts', 'Card payouts: the setup, destinations, single payouts and batches.')
    .addTag('Test clock', 'The clock the billing reads, movable only with TEST_CLOCK=true.')
    .addTag('API keys', 'Credentials with scopes, for the systems that call this API; only `admin` manages them.')
    .addTag('Console', "The operator console's sign-in (a session cookie) and the figures of its first screen.")
    .addTag('Health and metrics', 'Probes and Prometheus metrics; no token.')
    .build();
  return asOpenApi31(withSharedErrorResponses(withExamplesAndDescriptions(SwaggerModule.createDocument(app, config))));
}

/**
 * Serves the document at /openapi.json and a browser view at /docs. SwaggerModule registers these as plain
 * router routes, outside Nest's guards: they need no token by construction. The document is built at the
 * first request, so starting the app costs nothing.
 */
export function serveApiDescription(app: INestApplication): void {
  SwaggerModule.setup(API_DOCS_PATH, app, () => buildApiDocument(app), {
    jsonDocumentUrl: API_DOCUMENT_PATH,
    raw: ['json'],
    customSiteTitle: 'Billing daemon admin API',
    swaggerOptions: { persistAuthorization: false, displayRequestDuration: true },
  });
}
