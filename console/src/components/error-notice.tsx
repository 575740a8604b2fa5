import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { describeApiError } from '../api/error-message';
import { currentLanguage } from '../i18n/i18n';

/**
 * What went wrong, in the console's language: the message for the daemon's stable code, the code and the field at
 * fault. In English the daemon's own message follows, since it names the object and the figures; a Russian screen
 * shows no English sentence.
 */
export function ErrorNotice({ error }: { error: unknown }) {
  const { t, i18n } = useTranslation();
  if (!(error instanceof ApiError)) {
    return (
      <Alert variant="default" title={t('error.title')} role="alert" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  const { message, field, translated } = describeApiError(error, t, (key) => i18n.exists(key));
  const detail = field ? t('error.detailField', { code: error.code, field }) : t('error.detail', { code: error.code });
  return (
    <Alert variant="default" title={t('error.title')} role="alert" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      {message}
      {detail}
      {translated && currentLanguage() === 'en' && error.message !== message && (
        <Text size="sm" mt={4}>
          {t('apiErrorNotice.said', { message: error.message })}
        </Text>
      )}
    </Alert>
  );
}
