import { AsyncLocalStorage } from 'node:async_hooks';
import { Actor, SYSTEM_ACTOR } from './actor';

const storage = new AsyncLocalStorage<Actor>();

/**
 * Who is acting in the current async context: the request's credential inside a handler (set by
 * ActorContextInterceptor), the daemon itself (`system`) everywhere else (the scheduler and the work engine run
 * their loops from boot, outside any request).
 */
export const ActorContext = {
  current(): Actor {
    return storage.getStore() ?? SYSTEM_ACTOR;
  },

  /** Runs `work` (and everything it starts) as `actor`. */
  run<T>(actor: Actor, work: () => T): T {
    return storage.run(actor, work);
  },
};
