/** The languages the recovery page speaks: Russian for a browser that prefers it, English otherwise. */
export type PageLanguage = 'ru' | 'en';

export interface PageTexts {
  title: string;
  heading: string;
  intro: string;
  amountDue: string;
  plan: string;
  currentCard: string;
  noCard: string;
  button: string;
  buttonLabel: string;
  paidHeading: string;
  paidBody: string;
  expiredHeading: string;
  expiredBody: string;
  revokedHeading: string;
  revokedBody: string;
  closedHeading: string;
  closedBody: string;
  unavailableHeading: string;
  unavailableBody: string;
}

export const PAGE_TEXTS: Record<PageLanguage, PageTexts> = {
  en: {
    title: 'Update your card',
    heading: 'Your payment did not go through',
    intro: 'Add a new card and we will charge it right away.',
    amountDue: 'Amount due',
    plan: 'Plan',
    currentCard: 'Current card',
    noCard: 'No card on file',
    button: 'Add a new card',
    buttonLabel: 'Add a new card on the payment provider’s secure form',
    paidHeading: 'Already paid',
    paidBody: 'This payment has been made. There is nothing more to do.',
    expiredHeading: 'This link has expired',
    expiredBody: 'Ask the merchant for a new link.',
    revokedHeading: 'This link is no longer valid',
    revokedBody: 'A newer link was sent for this payment: use that one, or ask the merchant for a new one.',
    closedHeading: 'Nothing to pay',
    closedBody: 'This payment is no longer due.',
    unavailableHeading: 'The card form is unavailable',
    unavailableBody: 'Please try again in a few minutes.',
  },
  ru: {
    title: 'Обновите карту',
    heading: 'Платёж не прошёл',
    intro: 'Привяжите новую карту, и мы сразу спишем оплату.',
    amountDue: 'К оплате',
    plan: 'Тариф',
    currentCard: 'Текущая карта',
    noCard: 'Карта не привязана',
    button: 'Привязать новую карту',
    buttonLabel: 'Привязать новую карту на защищённой форме платёжного провайдера',
    paidHeading: 'Уже оплачено',
    paidBody: 'Этот платёж выполнен. Больше ничего делать не нужно.',
    expiredHeading: 'Срок действия ссылки истёк',
    expiredBody: 'Попросите у продавца новую ссылку.',
    revokedHeading: 'Ссылка больше не действует',
    revokedBody: 'Для этого платежа отправлена более новая ссылка: воспользуйтесь ей или попросите у продавца новую.',
    closedHeading: 'Оплачивать нечего',
    closedBody: 'Этот платёж больше не требуется.',
    unavailableHeading: 'Форма оплаты недоступна',
    unavailableBody: 'Попробуйте ещё раз через несколько минут.',
  },
};

/** Russian when the browser ranks Russian above English (by q-value, then order); English otherwise. */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
      return { primary: tag.split('-')[0].trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((entry) => (entry.primary === 'ru' || entry.primary === 'en') && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.primary === 'ru' ? 'ru' : 'en';
}

/** An amount in minor units, written the way the language writes money in that currency. */
export function formatMoney(minorUnits: number, currency: string, language: PageLanguage): string {
  const format = new Intl.NumberFormat(language === 'ru' ? 'ru-RU' : 'en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}
