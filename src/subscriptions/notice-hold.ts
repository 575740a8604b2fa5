import type { SqlParams } from '../database/sql-statement';

/**
 * Another module's reason to decide a subscription's notices later: a boolean SQL expression over the subscription id
 * `subscriptionId` (a column of the claiming statement) at `now`, binding its own values. Billing holds a notice while
 * a charge due by `now` is unsettled: its decline may end the subscription (the dunning final action).
 */
export type NoticeHold = (params: SqlParams, subscriptionId: string, now: Date) => string;
