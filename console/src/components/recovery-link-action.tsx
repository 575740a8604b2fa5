import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { api, unwrap } from '../api/client';
import { ActionButton } from './action-button';
import { Time } from './values';

/**
 * Mints a recovery link for a charge waiting for a new card or failed, and shows it read-only with a copy button, for
 * the merchant to send to the customer. A fresh link revokes the charge's earlier ones, so it asks first.
 */
export function RecoveryLinkAction(props: { chargeId: string; status: string; waitingForNewCard: boolean }) {
  if (!props.waitingForNewCard && props.status !== 'failed') return null;
  return (
    <ActionButton
      scope="charges:write"
      label="Recovery link"
      confirm={{
        title: 'Make a recovery link?',
        effect: 'A new link lets the customer bind a new card for this charge, without signing in. Links sent before for this charge stop working.',
        confirmLabel: 'Make the link',
      }}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/charges/{id}/recovery-link', { params: { path: { id: props.chargeId } }, body: {}, headers: { 'Idempotency-Key': key } }))
      }
      done={(link) =>
        link.url === null ? (
          // A repeat of a request whose answer was lost: the daemon never keeps a link, so it cannot show it again.
          'The link was made but cannot be shown again: make another.'
        ) : (
          <Stack gap="xs">
            <Group align="end" wrap="nowrap">
              <TextInput label="Recovery link" value={link.url} readOnly style={{ flex: 1 }} onFocus={(event) => event.currentTarget.select()} />
              <CopyButton value={link.url}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>}</CopyButton>
            </Group>
            <Text size="sm">
              Works until <Time value={link.expiresAt} />.
            </Text>
          </Stack>
        )
      }
    />
  );
}
