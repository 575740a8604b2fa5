/** For actions that take no body: with the global whitelist, any field sent is refused with 400. */
export class EmptyBodyDto {}
