import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListedEvent } from '../api/types';
import { objectLink } from './event-link';
import { IdLink } from './ids';
import { Money } from './values';

/**
 * What a listed event is about in words a person recognises: the customer's email (or phone), the plan's name and the
 * amount, linked to the object's page; its id stays on the link's title and copy button.
 */
export function EventAbout({ event }: { event: ListedEvent }) {
  const { t } = useTranslation();
  const to = objectLink(event);
  const id = (event.data.object as { id?: string }).id ?? '';
  const { about } = event;
  const who = about.customerName ?? (about.customerId ? t('eventAbout.noName') : null);
  const words = [who, about.planName].filter((w): w is string => w !== null).join(' · ');
  const label = (
    <>
      {words}
      {words && about.amount !== null && about.currency ? ' · ' : ''}
      {about.amount !== null && about.currency ? <Money amount={about.amount} currency={about.currency} /> : null}
    </>
  );
  const named = words !== '' || about.amount !== null;
  if (!to) return named ? <Text size="sm">{label}</Text> : <>—</>;
  return <IdLink to={to} id={id} label={named ? label : undefined} />;
}
