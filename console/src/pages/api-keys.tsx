import { Badge, Code, CopyButton, Button, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { ApiKey } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ActionDialog } from '../components/action-dialog';
import { PagedTable } from '../components/paged-table';
import { Time } from '../components/values';
import { endOfDayInOperatorZone, formatTimeIn, operatorZone, todayInOperatorZone } from '../format/time';

type Scope = ApiKey['scopes'][number];
const RESOURCES = ['plans', 'customers', 'subscriptions', 'charges', 'coupons', 'payouts', 'events', 'webhooks', 'reports'] as const;
const SCOPES: Scope[] = [...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`] as Scope[]), 'admin'];

/** The new key, shown once (only its hash is kept), with a copy button. */
function ShownOnce({ secret }: { secret: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm">{t('apiKeys.shownOnce')}</Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid="new-api-key" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <CopyButton value={secret} timeout={1500}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? t('common.copied') : t('apiKeys.copyKey')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function NewKeyDialog() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiryDay, setExpiryDay] = useState('');
  // A day in the operator's zone: the key works through its end, then stops.
  const expiresAt = expiryDay ? endOfDayInOperatorZone(expiryDay) : null;
  const expiryWrong = expiryDay !== '' && (expiresAt === null || Date.parse(expiresAt) <= Date.now());
  return (
    <ActionDialog
      scope="admin"
      label={t('apiKeys.new.label')}
      title={t('apiKeys.new.title')}
      confirmLabel={t('apiKeys.new.confirm')}
      ready={name.trim().length >= 1 && scopes.length >= 1 && !expiryWrong}
      onOpen={() => {
        setName('');
        setScopes([]);
        setExpiryDay('');
      }}
      run={async (key) => unwrap(await api.POST('/api/v1/api-keys', { body: { name: name.trim(), scopes: scopes as Scope[], ...(expiresAt ? { expiresAt } : {}) }, headers: { 'Idempotency-Key': key } }))}
      done={(r) => (r.key ? <ShownOnce secret={r.key} /> : t('apiKeys.new.replayed'))}
    >
      <TextInput label={t('apiKeys.new.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} required data-autofocus />
      <MultiSelect label={t('apiKeys.new.scopes')} description={t('apiKeys.new.scopesHelp')} data={SCOPES} value={scopes} onChange={setScopes} searchable comboboxProps={{ withinPortal: true }} />
      <TextInput
        type="date"
        label={t('apiKeys.new.expires')}
        description={expiresAt && !expiryWrong ? t('apiKeys.new.expiresUntil', { time: formatTimeIn(expiresAt, operatorZone()), zone: operatorZone() }) : t('apiKeys.new.expiresHelp', { zone: operatorZone() })}
        min={todayInOperatorZone()}
        value={expiryDay}
        onChange={(e) => setExpiryDay(e.currentTarget.value)}
        error={expiryWrong ? t('apiKeys.new.expiresError') : undefined}
      />
    </ActionDialog>
  );
}

/** API keys: each with its scopes and when it was last used; a new one (shown once); revoke one. */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const state = (k: ApiKey) => (k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= Date.now() ? 'expired' : 'active');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('apiKeys.title')}
        </Title>
        <NewKeyDialog />
      </Group>
      <PagedTable<ApiKey>
        caption={t('apiKeys.caption')}
        queryKey={['api-keys']}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/api-keys', { params: { query: { cursor, limit: 25 } } }))}
        rowKey={(k) => k.id}
        empty={t('apiKeys.empty')}
        columns={[
          { header: t('apiKeys.col.name'), cell: (k) => k.name },
          { header: t('apiKeys.col.scopes'), cell: (k) => <Code>{k.scopes.join(' ')}</Code> },
          { header: t('apiKeys.col.state'), cell: (k) => <Badge variant="dot" color={state(k) === 'active' ? 'green' : 'dark'} style={{ textTransform: 'none', minWidth: 'max-content' }}>{t(`apiKeys.states.${state(k)}`)}</Badge> },
          { header: t('apiKeys.col.created'), cell: (k) => <Time value={k.createdAt} /> },
          { header: t('apiKeys.col.lastUsed'), cell: (k) => <Time value={k.lastUsedAt} /> },
          // In the operator's zone, where the day was chosen, and in UTC beside it.
          { header: t('apiKeys.col.expires'), cell: (k) => (k.expiresAt ? <Time value={k.expiresAt} zone={operatorZone()} /> : t('apiKeys.never')) },
          {
            header: t('apiKeys.col.actions'),
            cell: (k) => (
              <ActionButton
                scope="admin"
                label={t('apiKeys.revoke.label')}
                color="red"
                disabled={k.revokedAt !== null}
                confirm={{ title: t('apiKeys.revoke.title', { name: k.name }), effect: t('apiKeys.revoke.effect'), confirmLabel: t('apiKeys.revoke.confirm') }}
                run={async (key) => unwrap(await api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: k.id } }, headers: { 'Idempotency-Key': key } }))}
                done={(r) => t('apiKeys.revoke.done', { name: r.name })}
              />
            ),
          },
        ]}
      />
    </Stack>
  );
}
