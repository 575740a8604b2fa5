import type { PlanMigration, PlanMigrationStatus } from './plan-migration.entity';

export interface PlanMigrationResponse {
  id: string;
  fromPlanId: string;
  toPlanId: string;
  noticeDays: number;
  quantityRule: 'keep';
  status: PlanMigrationStatus;
  counts: { scheduled: number; skipped: number };
  createdAt: string;
  completedAt: string | null;
}

/** The admin API's view of a plan migration. */
export function toPlanMigrationResponse(m: PlanMigration): PlanMigrationResponse {
  return {
    id: m.id,
    fromPlanId: m.fromPlanId,
    toPlanId: m.toPlanId,
    noticeDays: m.noticeDays,
    quantityRule: m.quantityRule,
    status: m.status,
    counts: { scheduled: m.scheduledCount, skipped: m.skippedCount },
    createdAt: m.createdAt.toISOString(),
    completedAt: m.completedAt ? m.completedAt.toISOString() : null,
  };
}
