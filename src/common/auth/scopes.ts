/** The resources a key may be allowed to read or write (the contract's list). */
export const SCOPE_RESOURCES = ['plans', 'customers', 'subscriptions', 'charges', 'coupons', 'payouts', 'events', 'webhooks', 'reports'] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];

/** `admin` implies every other scope; a resource's `write` implies its `read`. */
export const ADMIN_SCOPE = 'admin';

export type Scope = `${ScopeResource}:read` | `${ScopeResource}:write` | typeof ADMIN_SCOPE;

/** Every scope there is, in the order the documentation lists them. */
export const SCOPES: readonly Scope[] = [...SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as Scope[]), ADMIN_SCOPE];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether holding `held` allows what `needed` names: `admin` allows everything, `x:write` allows `x:read`. */
export function scopesGrant(held: readonly string[], needed: Scope): boolean {
  if (held.includes(ADMIN_SCOPE) || held.includes(needed)) return true;
  return needed.endsWith(':read') && held.includes(needed.replace(/:read$/, ':write'));
}
