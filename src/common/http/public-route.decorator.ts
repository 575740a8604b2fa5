import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'billing:public-route';

/**
 * Marks a handler as reachable without the admin token. Everything else is denied by default, so this
 * decorator is the whole allow-list of Nest handlers: health probes, metrics and the signed provider webhook.
 * The API description (/openapi.json, /docs) is served by SwaggerModule as plain router routes, outside any
 * handler, and holds no data. A test walks every registered route and fails when one is public that is not
 * on its list.
 */
export const PublicRoute = (): MethodDecorator => SetMetadata(PUBLIC_ROUTE, true);
