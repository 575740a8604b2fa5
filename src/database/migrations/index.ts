import { BillingSchema1795241320428 } from './1795241320428-BillingSchema';

/** Every migration, in order. Generate new ones with `npm run migration:generate -- src/database/migrations/<Name>`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [BillingSchema1795241320428];
