import type { NestExpressApplication } from '@nestjs/platform-express';

export interface Route {
  method: string;
  path: string;
}

/** Every route the app registered, read from the router itself, so a new route cannot be missed. */
export function registeredRoutes(app: NestExpressApplication): Route[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  const routes: Route[] = [];
  for (const layer of express.router.stack) {
    // Nest's not-found handler (every method on `/{*path}`) answers 404; it is not a route of the API.
    if (!layer.route || layer.route.path === '/{*path}') continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: layer.route.path });
    }
  }
  return routes;
}
