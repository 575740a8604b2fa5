import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ActionButton } from './action-button';
import { Time } from './values';

/**
 * Mints a recovery link for a charge waiting for a new card or failed, and shows it read-only with a copy button, for
 * the merchant to send to the customer. A fresh link revokes the charge's earlier ones, so it asks first.
 */
export function RecoveryLinkAction(props: { chargeId: string; status: string; waitingForNewCard: boolean }) {
  const { t } = useTranslation();
  if (!props.waitingForNewCard && props.status !== 'failed') return null;
  return (
    <ActionButton
      scope="charges:write"
      label={t('recoveryLink.label')}
      confirm={{
        title: t('recoveryLink.confirmTitle'),
        effect: t('recoveryLink.confirmEffect'),
        confirmLabel: t('recoveryLink.confirmLabel'),
      }}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/charges/{id}/recovery-link', { params: { path: { id: props.chargeId } }, body: {}, headers: { 'Idempotency-Key': key } }))
      }
      done={(link) =>
        link.url === null ? (
          // A repeat of a request whose answer was lost: the daemon never keeps a link, so it cannot show it again.
          t('recoveryLink.notShownAgain')
        ) : (
          <Stack gap="xs">
            <Group align="end" wrap="nowrap">
              <TextInput label={t('recoveryLink.label')} value={link.url} readOnly style={{ flex: 1 }} onFocus={(event) => event.currentTarget.select()} />
              <CopyButton value={link.url}>{({ copied, copy }) => <Button onClick={copy}>{copied ? t('recoveryLink.copied') : t('recoveryLink.copy')}</Button>}</CopyButton>
            </Group>
            <Text size="sm">
              <Trans i18nKey="recoveryLink.worksUntil" components={{ time: <Time value={link.expiresAt} /> }} />
            </Text>
          </Stack>
        )
      }
    />
  );
}
