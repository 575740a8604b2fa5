import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * "Card expired": the API's `cardExpired` (the newest decline said the card has expired and no card was bound since).
 * The daemon never sees expiry dates, so the rule is the API's, not the console's.
 */
export function CardExpiredFlag({ cardExpired }: { cardExpired: boolean }) {
  const { t } = useTranslation();
  if (!cardExpired) return null;
  return (
    <Alert variant="default" role="status" style={{ borderColor: 'var(--mantine-color-orange-9)' }} title={t('cardExpired.title')} data-testid="card-expired">
      {t('cardExpired.text')}
    </Alert>
  );
}
