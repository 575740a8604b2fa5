/** Who made a change, as every audit entry and event records it. */
export interface Actor {
  type: 'admin_token' | 'api_key' | 'console' | 'system';
  /** The API key's id (for `api_key`, and for `console` signed in with a key). */
  id?: string;
  /** The API key's name, as given when it was made. */
  name?: string;
}

/** The work of the daemon itself: the scheduler, the work engine, provider events. */
export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system' });

/** A caller authenticated by the guard: who it is and what it may do. */
export interface Credential {
  actor: Actor;
  /** The scopes it holds (`admin` for the root token). */
  scopes: readonly string[];
  /** What its requests are counted under for the rate limit. */
  rateKey: string;
}
