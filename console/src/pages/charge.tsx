import { Badge, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ActionButton } from '../components/action-button';
import { ChargeRefunds } from '../components/charge-refunds';
import { ErrorNotice } from '../components/error-notice';
import { RecoveryLinkAction } from '../components/recovery-link-action';
import { Field, IdLink, Money, Status, Time } from '../components/values';
import { useValueLabel } from '../i18n/value-label';

const CLASS_COLORS: Record<string, string> = { hard: 'red', soft: 'orange', technical: 'gray' };

function FailureClass({ value }: { value: string | null | undefined }) {
  const valueLabel = useValueLabel();
  if (!value) return <span>—</span>;
  return (
    <Badge color={CLASS_COLORS[value]} variant="dot" style={{ textTransform: 'none', minWidth: 'max-content' }}>
      {valueLabel('failureClass', value)}
    </Badge>
  );
}

export default function ChargePage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
  const { id = '' } = useParams();
  // Read again every two seconds while a payment is at the provider, so its outcome shows by itself.
  const whileInFlight = (status?: string) => (status === 'pending' || status === 'processing' ? 2_000 : false);
  const charge = useQuery({
    queryKey: ['charge', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/charges/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => whileInFlight(query.state.data?.status),
  });
  const dunning = useQuery({
    queryKey: ['charge-dunning', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/charges/{id}/dunning', { params: { path: { id } } })),
    refetchInterval: (query) => whileInFlight(query.state.data?.status),
  });
  const subscriptionId = charge.data?.subscriptionId;
  const subscription = useQuery({
    queryKey: ['subscription', subscriptionId],
    // A one-off may belong to no subscription.
    enabled: typeof subscriptionId === 'string',
    queryFn: async () => unwrap(await api.GET('/api/v1/subscriptions/{id}', { params: { path: { id: subscriptionId ?? '' } } })),
  });
  const error = charge.error ?? dunning.error;
  if (error) return <ErrorNotice error={error} />;
  const c = charge.data;
  const d = dunning.data;
  if (!c || !d) return null;
  const zone = subscription.data?.timezone;
  const retryable = ['retrying', 'failed', 'pending'].includes(c.status);
  // Declined before: a manual attempt is outside the ladder (the daemon's rule for POST /charges/{id}/retry).
  const dunned = d.attempts.some((a) => a.status === 'declined');
  const ladderNumber = new Map(d.attempts.filter((a) => !a.manual).map((a, i) => [a.number, i + 1]));
  return (
    <Stack>
      <Title order={1} size="h2">
        <Trans i18nKey="charge.title" components={{ id: <Code fz="inherit">{c.id.slice(0, 8)}</Code>, status: <Status value={c.status} /> }} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('charge.amount')}>
          <Money amount={c.amount} currency={c.currency} />
        </Field>
        <Field label={t('charge.subscription')}>{c.subscriptionId ? <IdLink to={`/subscriptions/${c.subscriptionId}`} id={c.subscriptionId} /> : '—'}</Field>
        <Field label={t('charge.customer')}>
          <IdLink to={`/customers/${c.customerId}`} id={c.customerId} />
        </Field>
        <Field label={t('charge.period')}>
          {c.kind === 'one_off' ? (
            t('charge.oneOff')
          ) : (
            <>
              <Time value={c.periodStart} zone={zone} /> → <Time value={c.periodEnd} zone={zone} />
            </>
          )}
        </Field>
        <Field label={t('charge.invoice')}>{c.invoiceId ?? '—'}</Field>
        <Field label={t('charge.attempts')}>
          <Text data-testid="attempt-n-of-n">
            {t('charge.attemptsOf', { made: d.attemptsMade, max: d.maxAttempts })}
            {d.nextAttemptNumber !== null && d.nextAttemptNumber !== undefined ? t('charge.attemptsNext', { next: d.nextAttemptNumber, max: d.maxAttempts }) : ''}
          </Text>
        </Field>
        <Field label={t('charge.nextAttempt')}>
          <Time value={d.nextAttemptAt} zone={zone} />
        </Field>
        <Field label={t('charge.lastError')}>
          {d.lastError ? (
            <Group gap="xs">
              <Code>{d.lastError.code}</Code>
              <FailureClass value={d.lastError.class} />
            </Group>
          ) : (
            '—'
          )}
        </Field>
        <Field label={t('charge.collection')}>
          {d.waitingForNewCard ? (
            t('charge.waitingCard')
          ) : d.givesUpAt ? (
            <Trans i18nKey="charge.givesUp" components={{ time: <Time value={d.givesUpAt} zone={zone} /> }} />
          ) : (
            '—'
          )}
        </Field>
        <Field label={t('charge.ladder')}>{t('charge.ladderText', { delays: d.retryDelays.join(', ') || t('charge.noRetries'), action: valueLabel('finalAction', d.finalAction) })}</Field>
        <Field label={t('charge.technicalFailures')}>{d.technicalFailures}</Field>
      </SimpleGrid>
      <Group>
        <ActionButton
          scope="charges:write"
          label={t('charge.retry.label')}
          color="indigo"
          disabled={!retryable}
          confirm={{
            title: t('charge.retry.title'),
            effect: dunned ? (
              <Trans i18nKey="charge.retry.effectDunned" count={d.maxAttempts} components={{ amount: <Money amount={c.amount} currency={c.currency} /> }} />
            ) : (
              <Trans i18nKey="charge.retry.effect" components={{ amount: <Money amount={c.amount} currency={c.currency} /> }} />
            ),
            confirmLabel: t('charge.retry.confirm'),
          }}
          run={async (key) => unwrap(await api.POST('/api/v1/charges/{id}/retry', { params: { path: { id } }, body: {}, headers: { 'Idempotency-Key': key } }))}
          done={(r) =>
            r.lastErrorCode ? t('charge.retry.doneCode', { status: valueLabel('status', r.status), code: r.lastErrorCode }) : t('charge.retry.done', { status: valueLabel('status', r.status) })
          }
        />
        <RecoveryLinkAction chargeId={c.id} status={c.status} waitingForNewCard={d.waitingForNewCard} />
      </Group>
      <ChargeRefunds c={c} />
      <section aria-labelledby="attempts">
        <Title order={2} size="h4" id="attempts">
          {t('charge.paymentAttempts')}
        </Title>
        <Table>
          <caption style={{ position: 'absolute', left: -10000 }}>{t('charge.attemptsCaption')}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('charge.col.attempt')}</Table.Th>
              <Table.Th scope="col">{t('charge.col.when')}</Table.Th>
              <Table.Th scope="col">{t('charge.col.status')}</Table.Th>
              <Table.Th scope="col">{t('charge.col.code')}</Table.Th>
              <Table.Th scope="col">{t('charge.col.class')}</Table.Th>
              <Table.Th scope="col">{t('charge.col.payment')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.attempts.map((a) => (
              <Table.Tr key={a.number}>
                <Table.Td>{a.manual ? t('charge.manualRetry') : t('charge.ladderStep', { n: ladderNumber.get(a.number), max: d.maxAttempts })}</Table.Td>
                <Table.Td>
                  <Time value={a.createdAt} zone={zone} />
                </Table.Td>
                <Table.Td>
                  <Status value={a.status} />
                </Table.Td>
                <Table.Td>{a.errorCode ? <Code>{a.errorCode}</Code> : '—'}</Table.Td>
                <Table.Td>
                  <FailureClass value={a.class} />
                </Table.Td>
                <Table.Td>{a.paymentId ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {d.attempts.length === 0 && <Text size="sm">{t('charge.noAttempt')}</Text>}
      </section>
    </Stack>
  );
}
