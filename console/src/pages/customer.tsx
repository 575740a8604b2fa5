import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { Binding } from '../api/types';
import { ActionButton } from '../components/action-button';
import { CustomerMoney } from '../components/customer-money';
import { ErrorNotice } from '../components/error-notice';
import { ChargesTable, SubscriptionsTable } from '../components/lists';
import { PagedTable } from '../components/paged-table';
import { Field, Json, Status, Time } from '../components/values';
import { useValueLabel } from '../i18n/value-label';
import { CardReplacementFlag } from '../components/card-replacement-flag';
import { CardExpiredFlag } from '../components/card-expired-flag';
import { CustomerPendingItems } from '../components/customer-pending-items';

export default function CustomerPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const { id = '' } = useParams();
  const customer = useQuery({ queryKey: ['customer', id], queryFn: async () => unwrap(await api.GET('/api/v1/customers/{id}', { params: { path: { id } } })) });
  if (customer.error) return <ErrorNotice error={customer.error} />;
  const c = customer.data;
  if (!c) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('customer.title', { name: c.email ?? c.id })}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('customer.id')}>
          <Code>{c.id}</Code>
        </Field>
        <Field label={t('customer.status')}>
          <Status value={c.status} />
        </Field>
        <Field label={t('customer.providerId')}>
          <Code>{c.providerCustomerId}</Code>
        </Field>
        <Field label={t('customer.email')}>{c.email ?? '—'}</Field>
        <Field label={t('customer.phone')}>{c.phone ?? '—'}</Field>
        <Field label={t('customer.readySince')}>
          <Time value={c.readyAt} />
        </Field>
      </SimpleGrid>
      <CardExpiredFlag cardExpired={c.cardExpired} />
      <CardReplacementFlag customerId={c.id} />
      <Card withBorder>
        <Title order={2} size="h4">
          {t('customer.card')}
        </Title>
        {c.card ? (
          <Text>
            {c.card.paymentSystem ?? t('customer.cardFallback')} {c.card.bin ?? ''}•••••• {c.card.lastDigits ?? ''}
          </Text>
        ) : (
          <Text>{c.pendingBinding ? t('customer.noCardPending') : t('customer.noCard')}</Text>
        )}
        <Group mt="sm">
          {c.hostedFormUrl && (
            <Anchor href={c.hostedFormUrl} target="_blank" rel="noreferrer">
              {t('customer.hostedForm')}
            </Anchor>
          )}
          <ActionButton
            scope="customers:write"
            label={t('customer.newToken')}
            run={async (key) => unwrap(await api.POST('/api/v1/customers/{id}/access-token', { params: { path: { id } }, headers: { 'Idempotency-Key': key } }))}
            done={(r) => (
              <Stack gap={4}>
                <Text size="sm">{t('customer.tokenShownOnce')}</Text>
                <Code data-testid="access-token">{r.customerAccessToken}</Code>
                {r.hostedFormUrl && (
                  <Anchor href={r.hostedFormUrl} target="_blank" rel="noreferrer">
                    {t('customer.openHostedForm')}
                  </Anchor>
                )}
              </Stack>
            )}
          />
        </Group>
      </Card>
      <CustomerMoney customerId={id} />
      <CustomerPendingItems customerId={id} />
      <section aria-labelledby="bindings">
        <Title order={2} size="h4" id="bindings">
          {t('customer.bindings')}
        </Title>
        <PagedTable<Binding>
          caption={t('customer.bindingsCaption')}
          queryKey={['bindings', id]}
          fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/customers/{id}/bindings', { params: { path: { id }, query: { cursor, limit: 10 } } }))}
          rowKey={(b) => b.id}
          empty={t('customer.noBinding')}
          columns={[
            { header: t('col.started'), cell: (b) => <Time value={b.createdAt} /> },
            { header: t('col.source'), cell: (b) => valueLabel('customer.source', b.source) },
            { header: t('col.status'), cell: (b) => <Status value={b.status} /> },
            { header: t('col.card'), cell: (b) => (b.card ? `•••• ${b.card.lastDigits ?? ''}` : '—') },
            { header: t('col.error'), cell: (b) => b.errorCode ?? '—' },
          ]}
        />
      </section>
      <section aria-labelledby="subscriptions">
        <Title order={2} size="h4" id="subscriptions">
          {t('customer.subscriptions')}
        </Title>
        <SubscriptionsTable filter={{ customerId: id }} />
      </section>
      <section aria-labelledby="charges">
        <Title order={2} size="h4" id="charges">
          {t('customer.charges')}
        </Title>
        <ChargesTable filter={{ customerId: id }} />
      </section>
      <section aria-labelledby="metadata">
        <Title order={2} size="h4" id="metadata">
          {t('customer.metadata')}
        </Title>
        <Json value={c.metadata} />
      </section>
    </Stack>
  );
}
