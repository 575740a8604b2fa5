import { Alert } from '@mantine/core';
import { ApiError } from '../api/client';

/** What went wrong, as the daemon said it: its message, its stable code and the field at fault. */
export function ErrorNotice({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  const detail = error instanceof ApiError ? ` (${error.code}${error.field ? `, field ${error.field}` : ''})` : '';
  return (
    <Alert variant="default" title="The daemon refused" role="alert" style={{ borderColor: 'var(--mantine-color-red-9)' }}>
      {message}
      {detail}
    </Alert>
  );
}
