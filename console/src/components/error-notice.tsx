import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';

/** What went wrong, as the daemon said it: its message, its stable code and the field at fault. */
export function ErrorNotice({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : String(error);
  const detail = error instanceof ApiError ? (error.field ? t('error.detailField', { code: error.code, field: error.field }) : t('error.detail', { code: error.code })) : '';
  return (
    <Alert variant="default" title={t('error.title')} role="alert" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      {message}
      {detail}
    </Alert>
  );
}
