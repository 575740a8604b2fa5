import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Scope } from './scopes';

export const REQUIRED_SCOPE = 'billing:required-scope';

/** The security scheme of the admin API's bearer credentials (ADMIN_TOKEN or an API key). */
export const BEARER_SCHEME = 'adminToken';

/**
 * The scope an API key needs to call this route, declared next to the route. A route without one needs `admin`
 * (deny by default); a test walks every route and fails on one that declares none. The API description shows it as
 * the operation's `x-scope` and in its security requirement.
 */
export const RequiresScope = (scope: Scope): MethodDecorator =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-scope', scope), ApiSecurity(BEARER_SCHEME, [scope]));
