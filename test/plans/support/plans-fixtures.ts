import { DataSource } from 'typeorm';
import { Plan } from '../../../src/plans/plan.entity';
import { startTestApp, TestApp } from '../../support/test-app';
import { resetDatabase } from '../../support/test-database';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export type Body = Record<string, unknown>;

export function validPlan(overrides: Body = {}): Body {
  return {
    name: 'Pro monthly',
    product: 'Pro plan',
    currency: 'RUB',
    interval: 'month',
    lines: [
      { product: 'Seat', price: 1000, quantity: 2, taxRate: '22%' },
      { product: 'Support', price: 500 },
    ],
    ...overrides,
  };
}

export interface PlansApp {
  t: TestApp;
  /** Every stored plan, oldest first: to prove what a request stored or did not. */
  plans: () => Promise<Plan[]>;
}

/** Registers the hooks of a plans suite: one daemon for the file, handed over by `onStart`, closed after it; with `resetEach`, an empty database before each test. */
export function usePlansApp(onStart: (started: PlansApp) => void, options: { resetEach?: boolean } = {}): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startTestApp();
    const dataSource = t.app.get(DataSource);
    onStart({ t, plans: () => dataSource.getRepository(Plan).find({ order: { createdAt: 'ASC' } }) });
  });
  afterAll(async () => {
    await t?.close();
  });
  if (options.resetEach) beforeEach(() => resetDatabase());
}

export async function createPlanIn(t: TestApp, overrides: Body = {}): Promise<Body> {
  const res = await t.api().post('/api/v1/plans').send(validPlan(overrides));
  expect(res.status).toBe(201);
  return res.body as Body;
}

/** The 400 body's messages; the contract allows a string or a list. */
export function messages(body: unknown): string[] {
  const message = (body as { message?: unknown }).message;
  return Array.isArray(message) ? (message as string[]) : [String(message)];
}
