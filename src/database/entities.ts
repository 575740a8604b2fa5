/** Every entity of the daemon; each domain adds its own here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const ENTITIES: Function[] = [];
