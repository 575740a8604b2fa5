import { waitFor } from '../../support/wait';
import { containing, DESKTOP, dayFromNow, exactly, OPERATOR_ZONE, OperatorTasks, PHONE, TEST_TAX_RATES, written } from './dunning-plan-tasks';

type Size = 'desktop' | 'phone';

/** "14 days" or "14 дней": the catalog's plural form the language picks for the count. */
function plural(tasks: OperatorTasks, key: string, count: number): string {
  return tasks.w(`${key}_${new Intl.PluralRules(tasks.language).select(count)}`, { count });
}
const days = (tasks: OperatorTasks, count: number) => plural(tasks, 'interval.day', count);

/** The story's own names, in the console's language: on a Russian screen an English word is a leak, whoever wrote it. */
const NAMES = {
  en: { ladder: 'Ladder', smart: 'Smart', product: 'Smart plan', line: 'Smart, monthly', only: 'Only' },
  ru: { ladder: 'Лесенка', smart: 'Умный', product: 'Умный тариф', line: 'Умный, помесячно', only: 'Только' },
};

/**
 * The operator's four tasks in the console at one width, in the ConsoleBrowser's language: change a plan's dunning on
 * the Dunning screen (a wrong delay refused on its field first), create a plan with smart dunning and a 10 % line,
 * a coupon limited to that plan with a redeem-by day, and an API key with an expiry day. Each ends by reading what
 * the API stored. Screenshots (desktop only) go where docs/console.md shows them.
 */
export async function operatorStories(tasks: OperatorTasks, size: Size): Promise<void> {
  const { b, w } = tasks;
  const page = b.page;
  const phone = size === 'phone';
  const shot = (name: string) => (phone ? undefined : name);
  await page.setViewportSize(phone ? PHONE : DESKTOP);
  const cancel = w('finalAction.cancel');
  const names = NAMES[tasks.language];

  // 1. The dunning of a plan on a fixed ladder becomes smart, up to 14 days.
  const ladderPlan = `${names.ladder} ${phone ? 390 : 1280}`;
  const ladder = (await b.api().post('/api/v1/plans').send({ name: ladderPlan, product: 'Ladder', currency: 'RUB', interval: 'month', lines: [{ product: 'Ladder', price: 50000 }], dunning: { retryDelays: ['1d', '3d'], finalAction: 'cancel' } }).expect(201)).body as { id: string };
  await b.open('/');
  await tasks.section('nav.dunning', 'dunningRules.title', phone);
  await page.getByRole('region', { name: w('dunningRules.classesCaption') }).getByText('insufficient_funds', { exact: true }).waitFor();
  // The daemon's cap per card (BILLING_MAX_ATTEMPTS_PER_CARD_30D, 15 by default), as the rules answer it.
  await page.getByText(plural(tasks, 'dunningRules.capValue', 15), { exact: true }).waitFor();
  await tasks.check(`dunning (${size})`, { screenshot: shot('dunning') });
  if (phone) await tasks.fitsThePhone();
  tasks.counting = `change a plan's dunning (${size})`;
  const row = page.getByRole('region', { name: w('dunningRules.plansCaption') }).getByRole('row', { name: containing(ladderPlan) });
  await row.getByText(w('plan.fixed', { delays: '1d, 3d', action: cancel })).waitFor();
  await tasks.click(row.getByRole('button', { name: w('dunningForm.label') }));
  const dialog = page.getByRole('dialog', { name: w('dunningForm.title', { name: ladderPlan }) });
  const save = dialog.getByRole('button', { name: w('dunningForm.confirm'), exact: true });
  const delays = dialog.getByRole('textbox', { name: w('planNew.retryDelays') });
  await delays.fill('1d, 3x');
  // Refused on the field itself, before anything is sent.
  await dialog.getByText(w('dunningForm.delayError', { delay: '3x' })).waitFor();
  expect(await delays.getAttribute('aria-invalid')).toBe('true');
  expect(await save.isDisabled()).toBe(true);
  await tasks.check(`dunning dialog with a wrong delay (${size})`, { dialog: true });
  await tasks.click(dialog.getByRole('radio', { name: w('dunningForm.smart') }));
  await dialog.getByRole('textbox', { name: w('dunningForm.maxDays') }).fill('14');
  const change = dialog.getByTestId('dunning-change');
  await change.getByText(w('plan.fixed', { delays: '1d, 3d', action: cancel })).waitFor();
  await change.getByText(w('plan.smart', { days: days(tasks, 14), action: cancel })).waitFor();
  await tasks.enabled(save);
  await tasks.check(`dunning dialog (${size})`, { dialog: true, screenshot: shot('dunning-change') });
  if (phone) await tasks.fitsThePhone();
  await tasks.click(save);
  await dialog.waitFor({ state: 'detached' });
  await b.done(w('dunningForm.done', { name: ladderPlan }));
  await row.getByText(w('plan.smart', { days: days(tasks, 14), action: cancel })).waitFor();
  expect((await b.api().get(`/api/v1/plans/${ladder.id}`).expect(200)).body.dunning).toMatchObject({ strategy: 'smart', maxDays: 14, finalAction: 'cancel' });

  // 2. A new plan with smart dunning (up to 30 days) and its line at 10 %.
  const planName = `${names.smart} ${phone ? 390 : 1280}`;
  await tasks.section('nav.plans', 'plans.title', phone);
  tasks.counting = `create a plan with smart dunning and a 10% line (${size})`;
  await tasks.click(page.getByRole('link', { name: w('plans.new') }));
  await b.heading(w('planNew.title'));
  await page.getByRole('textbox', { name: w('planNew.name'), exact: true }).fill(planName);
  await page.getByRole('textbox', { name: w('planNew.product'), exact: true }).fill(names.product);
  await page.getByRole('textbox', { name: w('planNew.lineProduct', { n: 1 }) }).fill(names.line);
  await page.getByRole('textbox', { name: w('planNew.linePrice', { n: 1 }) }).fill('150000');
  const rate = page.getByRole('textbox', { name: w('planNew.lineTaxRate', { n: 1 }) }).or(page.getByRole('combobox', { name: w('planNew.lineTaxRate', { n: 1 }) }));
  // The first of the daemon's rates, not a list the console keeps.
  expect(await rate.inputValue()).toBe(TEST_TAX_RATES[0]);
  await tasks.click(rate);
  const options = page.getByRole('option');
  await options.first().waitFor();
  expect(await options.allInnerTexts()).toEqual(TEST_TAX_RATES);
  await tasks.click(page.getByRole('option', { name: '10%', exact: true }));
  await tasks.click(page.getByRole('checkbox', { name: w('planNew.ownDunning') }));
  expect(await page.getByRole('radio', { name: w('dunningForm.smart') }).isChecked()).toBe(true);
  await page.getByText(w('dunningForm.smartHelp')).waitFor();
  await page.getByText(w('dunningForm.fixedHelp')).waitFor();
  await page.getByRole('textbox', { name: w('dunningForm.maxDays') }).fill('30');
  await tasks.check(`new plan (${size})`, { screenshot: shot('plan-new') });
  if (phone) await tasks.fitsThePhone();
  await tasks.click(page.getByRole('button', { name: w('planNew.create') }));
  await b.heading(containing(w('plan.title', { name: planName })));
  await page.getByText(w('plan.smart', { days: days(tasks, 30), action: cancel })).waitFor();
  await page.getByText(w('dunningForm.smart'), { exact: true }).waitFor();
  await page.getByRole('table', { name: w('plan.linesCaption') }).getByRole('row', { name: containing(names.line) }).getByText('10%', { exact: true }).waitFor();
  await tasks.check(`plan page (${size})`);
  if (phone) await tasks.fitsThePhone();
  const planId = /\/plans\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';
  const plan = (await b.api().get(`/api/v1/plans/${planId}`).expect(200)).body;
  expect({ lines: plan.lines, dunning: plan.dunning }).toEqual({ lines: [{ product: names.line, price: 150000, quantity: 1, taxRate: '10%' }], dunning: { strategy: 'smart', maxDays: 30, finalAction: 'cancel' } });

  // 3. A coupon for that plan only, redeemable through a day in the operator's zone.
  const code = `ONLY${size.toUpperCase()}`;
  const redeemDay = dayFromNow(120);
  await tasks.section('nav.coupons', 'coupons.title', phone);
  tasks.counting = `create a coupon for one plan with a redeem-by day (${size})`;
  await tasks.click(page.getByRole('button', { name: w('coupons.new.label') }));
  const couponForm = page.getByRole('dialog', { name: w('coupons.new.title') });
  const couponName = couponForm.getByRole('textbox', { name: w('coupons.new.name'), exact: true });
  await couponName.fill(`${names.only} ${planName}`);
  await couponForm.getByRole('textbox', { name: w('coupons.new.code'), exact: true }).fill(code);
  await tasks.click(couponForm.getByLabel(w('coupons.new.plans'), { exact: true }));
  await tasks.click(page.getByRole('option', { name: containing(`${planName}:`) }));
  // The list of plans stays open for more; a click elsewhere in the dialog folds it.
  await tasks.click(couponName);
  await couponForm.getByLabel(w('coupons.new.redeemBy'), { exact: true }).fill(redeemDay);
  await couponForm.getByText(w('coupons.new.redeemByUntil', { time: written(redeemDay, '23:59', tasks.language), zone: OPERATOR_ZONE })).waitFor();
  await tasks.check(`new coupon dialog (${size})`, { dialog: true, screenshot: shot('coupon-new') });
  if (phone) await tasks.fitsThePhone();
  await tasks.click(couponForm.getByRole('button', { name: w('coupons.new.confirm') }));
  await couponForm.waitFor({ state: 'detached' });
  await b.done(w('coupons.new.done', { code }));
  const couponRow = page.getByRole('table', { name: w('coupons.caption') }).getByRole('row', { name: containing(code) });
  await couponRow.getByText(`${written(redeemDay, '23:59', tasks.language)} ${OPERATOR_ZONE}`, { exact: false }).waitFor();
  await couponRow.getByRole('link', { name: planName }).waitFor();
  await tasks.check(`coupons (${size})`);
  if (phone) await tasks.fitsThePhone();
  const coupons = (await b.api().get('/api/v1/coupons').expect(200)).body.items as { code: string; appliesToPlans: string[] | null; redeemBy: string | null }[];
  expect(coupons.find((c) => c.code === code)).toMatchObject({ appliesToPlans: [planId], redeemBy: `${redeemDay}T13:59:00.000Z` });

  // 4. An API key that works through a day in the operator's zone; then one past its expiry shows so.
  const keyName = `expiring-${size}`;
  const keyDay = dayFromNow(30);
  await tasks.section('nav.apiKeys', 'apiKeys.title', phone);
  tasks.counting = `create an API key with an expiry (${size})`;
  await tasks.click(page.getByRole('button', { name: w('apiKeys.new.label') }));
  const keyForm = page.getByRole('dialog', { name: w('apiKeys.new.title') });
  const keyNameBox = keyForm.getByRole('textbox', { name: w('apiKeys.new.name'), exact: true });
  await keyNameBox.fill(keyName);
  await tasks.click(keyForm.getByLabel(w('apiKeys.new.scopes'), { exact: true }));
  await tasks.click(page.getByRole('option', { name: 'customers:read' }));
  await tasks.click(keyNameBox);
  await keyForm.getByLabel(w('apiKeys.new.expires'), { exact: true }).fill(keyDay);
  await keyForm.getByText(w('apiKeys.new.expiresUntil', { time: written(keyDay, '23:59', tasks.language), zone: OPERATOR_ZONE })).waitFor();
  await tasks.check(`new API key dialog (${size})`, { dialog: true, screenshot: shot('api-key-new') });
  if (phone) await tasks.fitsThePhone();
  await tasks.click(keyForm.getByRole('button', { name: w('apiKeys.new.confirm') }));
  await keyForm.waitFor({ state: 'detached' });
  expect(await page.getByTestId('new-api-key').innerText()).toMatch(/^bk_.{43}$/);
  const keys = page.getByRole('table', { name: w('apiKeys.caption') });
  const keyRow = keys.getByRole('row', { name: containing(keyName) });
  await keyRow.getByText(`${written(keyDay, '23:59', tasks.language)} ${OPERATOR_ZONE}`, { exact: false }).waitFor();
  await keyRow.getByText(exactly(w('apiKeys.states.active'))).waitFor();
  const stored = ((await b.api().get('/api/v1/api-keys').expect(200)).body.items as { name: string; expiresAt: string | null }[]).find((k) => k.name === keyName);
  expect(stored?.expiresAt).toBe(`${keyDay}T13:59:00.000Z`);

  const soon = new Date(Date.now() + 5_000).toISOString();
  await b.api().post('/api/v1/api-keys').send({ name: `lapsed-${size}`, scopes: ['events:read'], expiresAt: soon }).expect(201);
  await waitFor(async () => Date.now(), (now) => now > Date.parse(soon), { timeoutMs: 30_000, everyMs: 250, what: 'the short key past its expiry' });
  await b.open('/api-keys');
  await keys.getByRole('row', { name: containing(`lapsed-${size}`) }).getByText(exactly(w('apiKeys.states.expired'))).waitFor();
  await tasks.check(`API keys (${size})`);
  if (phone) await tasks.fitsThePhone();
}
