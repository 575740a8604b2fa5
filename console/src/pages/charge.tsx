import { Badge, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { RecoveryLinkAction } from '../components/recovery-link-action';
import { Field, IdLink, Money, Status, Time } from '../components/values';

const CLASS_COLORS: Record<string, string> = { hard: 'red', soft: 'orange', technical: 'gray' };

function FailureClass({ value }: { value: string | null | undefined }) {
  if (!value) return <span>—</span>;
  return (
    <Badge color={CLASS_COLORS[value]} variant="dot" style={{ textTransform: 'none' }}>
      {value}
    </Badge>
  );
}

export default function ChargePage() {
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
        Charge <Code fz="inherit">{c.id.slice(0, 8)}</Code> <Status value={c.status} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Amount">
          <Money amount={c.amount} currency={c.currency} />
        </Field>
        <Field label="Subscription">{c.subscriptionId ? <IdLink to={`/subscriptions/${c.subscriptionId}`} id={c.subscriptionId} /> : '—'}</Field>
        <Field label="Customer">
          <IdLink to={`/customers/${c.customerId}`} id={c.customerId} />
        </Field>
        <Field label="Period">
          {c.kind === 'one_off' ? (
            'One-off'
          ) : (
            <>
              <Time value={c.periodStart} zone={zone} /> → <Time value={c.periodEnd} zone={zone} />
            </>
          )}
        </Field>
        <Field label="Provider's invoice">{c.invoiceId ?? '—'}</Field>
        <Field label="Attempts">
          <Text data-testid="attempt-n-of-n">
            {d.attemptsMade} of {d.maxAttempts}
            {d.nextAttemptNumber !== null && d.nextAttemptNumber !== undefined ? ` (next: attempt ${d.nextAttemptNumber} of ${d.maxAttempts})` : ''}
          </Text>
        </Field>
        <Field label="Next attempt">
          <Time value={d.nextAttemptAt} zone={zone} />
        </Field>
        <Field label="Last error">
          {d.lastError ? (
            <Group gap="xs">
              <Code>{d.lastError.code}</Code>
              <FailureClass value={d.lastError.class} />
            </Group>
          ) : (
            '—'
          )}
        </Field>
        <Field label="Collection">
          {d.waitingForNewCard ? 'Waiting for a new card (hard decline)' : d.givesUpAt ? <>Gives up at <Time value={d.givesUpAt} zone={zone} /></> : '—'}
        </Field>
        <Field label="Ladder">
          {d.retryDelays.join(', ') || 'no retries'}, then {d.finalAction}
        </Field>
        <Field label="Technical failures">{d.technicalFailures}</Field>
      </SimpleGrid>
      <Group>
        <ActionButton
          scope="charges:write"
          label="Retry now"
          color="indigo"
          disabled={!retryable}
          confirm={{
            title: 'Attempt this charge now?',
            effect: dunned ? (
              <>
                A new payment of <Money amount={c.amount} currency={c.currency} /> is asked of the customer's current card at once, outside the retry ladder:
                if it is declined, it does not count as one of the ladder's {d.maxAttempts} attempts, the next scheduled attempt stays where it is, and the
                subscription keeps its status (a hard decline waits for a new card, as any hard decline).
              </>
            ) : (
              <>
                A new payment of <Money amount={c.amount} currency={c.currency} /> is asked of the customer's current card at once: the charge's own attempt,
                made now.
              </>
            ),
            confirmLabel: 'Retry now',
          }}
          run={async (key) => unwrap(await api.POST('/api/v1/charges/{id}/retry', { params: { path: { id } }, body: {}, headers: { 'Idempotency-Key': key } }))}
          done={(r) => `Attempted: the charge is now ${r.status}${r.lastErrorCode ? ` (${r.lastErrorCode})` : ''}.`}
        />
        <RecoveryLinkAction chargeId={c.id} status={c.status} waitingForNewCard={d.waitingForNewCard} />
      </Group>
      <section aria-labelledby="attempts">
        <Title order={2} size="h4" id="attempts">
          Payment attempts
        </Title>
        <Table>
          <caption style={{ position: 'absolute', left: -10000 }}>Payment attempts, first first</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Attempt</Table.Th>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Provider's code</Table.Th>
              <Table.Th scope="col">Class</Table.Th>
              <Table.Th scope="col">Payment</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.attempts.map((a) => (
              <Table.Tr key={a.number}>
                <Table.Td>{a.manual ? 'Manual retry' : `${ladderNumber.get(a.number)} of ${d.maxAttempts}`}</Table.Td>
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
        {d.attempts.length === 0 && <Text size="sm">No attempt yet.</Text>}
      </section>
    </Stack>
  );
}
