/**
 * What the session's scopes allow (the daemon's rule, src/common/auth/scopes.ts): `admin` everything, a resource's
 * `write` its `read`. The console hides what its credential may not do; the API refuses it anyway.
 */
export function allows(held: readonly string[], needed: string): boolean {
  if (held.includes('admin') || held.includes(needed)) return true;
  return needed.endsWith(':read') && held.includes(needed.replace(/:read$/, ':write'));
}
