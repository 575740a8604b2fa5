import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'billing:public-route';

/**
 * Marks a handler as reachable without the admin token. Everything else is denied by default, so this
 * decorator is the whole allow-list: health probes, metrics, the API description and the signed provider
 * webhook. A test walks every registered route and fails when one is public that is not on its list.
 */
export const PublicRoute = (): MethodDecorator => SetMetadata(PUBLIC_ROUTE, true);
