import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { WebhookAttempt } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { PagedTable } from '../components/paged-table';
import { Field, IdLink, Status, Time } from '../components/values';

function RedeliverButton({ attempt, endpointId }: { attempt: WebhookAttempt; endpointId: string }) {
  return (
    <ActionButton
      scope="webhooks:write"
      label="Redeliver"
      variant="default"
      confirm={{
        title: 'Send this event again?',
        effect: 'The same body, with the same webhook-id, is sent again to this endpoint; receivers that deduplicate by webhook-id ignore it if they already have it.',
        confirmLabel: 'Redeliver',
      }}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/events/{id}/redeliver', { params: { path: { id: attempt.eventId } }, body: { endpointId }, headers: { 'Idempotency-Key': key } }))
      }
      done={() => 'Queued again for this endpoint.'}
    />
  );
}

export default function EndpointPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Once deleted, nothing on this page reads the endpoint again (it would only find a 404).
  const [deleted, setDeleted] = useState(false);
  const endpoint = useQuery({
    queryKey: ['webhook-endpoint', id],
    enabled: !deleted,
    queryFn: async () => unwrap(await api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id } } })),
  });
  if (endpoint.error) return <ErrorNotice error={endpoint.error} />;
  const e = endpoint.data;
  if (!e) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        Webhook endpoint <Status value={e.enabled ? 'active' : 'paused'} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="URL">
          <Code>{e.url}</Code>
        </Field>
        <Field label="Events">{e.events.join(', ')}</Field>
        <Field label="Description">{e.description ?? '—'}</Field>
        <Field label="Failed attempts in a row">{e.consecutiveFailures}</Field>
        <Field label="Created">
          <Time value={e.createdAt} />
        </Field>
      </SimpleGrid>
      <Group>
        <ActionButton
          scope="webhooks:write"
          label={e.enabled ? 'Pause' : 'Enable'}
          color={e.enabled ? 'yellow' : 'green'}
          confirm={
            e.enabled
              ? { title: 'Pause this endpoint?', effect: 'Nothing is sent to it while paused, and deliveries queued for it are canceled (redeliver them later from its list).', confirmLabel: 'Pause' }
              : undefined
          }
          run={async (key) => unwrap(await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id } }, body: { enabled: !e.enabled }, headers: { 'Idempotency-Key': key } }))}
          done={(r) => `The endpoint is now ${r.enabled ? 'enabled' : 'paused'}.`}
        />
        <ActionButton
          scope="webhooks:write"
          label="Delete"
          color="red"
          confirm={{
            title: 'Delete this endpoint?',
            effect: `${e.url} receives nothing from now on; its queued deliveries are canceled and its delivery log goes with it. This cannot be undone.`,
            confirmLabel: 'Delete',
          }}
          run={async (key) => unwrap(await api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id } }, headers: { 'Idempotency-Key': key } }))}
          done={() => 'Deleted.'}
          onDone={() => {
            // Synchronously, so its deliveries list is gone before the refresh that follows every write.
            flushSync(() => setDeleted(true));
            // The cached list still holds this endpoint: drop it so the list page shows only what the server answers.
            queryClient.removeQueries({ queryKey: ['webhook-endpoints'] });
            void navigate('/webhook-endpoints');
          }}
        />
      </Group>
      {!deleted && (
        <section aria-labelledby="deliveries">
          <Title order={2} size="h4" id="deliveries">
            Deliveries
          </Title>
          <PagedTable<WebhookAttempt>
            caption="Delivery attempts, newest first"
            queryKey={['webhook-deliveries', id]}
            fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { cursor, limit: 20 } } }))}
            rowKey={(a) => a.id}
            empty="Nothing sent yet."
            columns={[
              { header: 'Event', cell: (a) => <IdLink to={`/events/${a.eventId}`} id={a.eventId} /> },
              { header: 'Attempt', cell: (a) => a.attempt },
              { header: 'Result', cell: (a) => <Status value={a.status} /> },
              { header: 'HTTP', cell: (a) => a.responseStatus ?? '—' },
              { header: 'Time', cell: (a) => `${a.durationMs} ms` },
              { header: 'Error', cell: (a) => a.error ?? '—' },
              { header: 'Sent', cell: (a) => <Time value={a.createdAt} /> },
              { header: 'Next try', cell: (a) => <Time value={a.nextAttemptAt} /> },
              { header: '', cell: (a) => <RedeliverButton attempt={a} endpointId={id} /> },
            ]}
          />
        </section>
      )}
    </Stack>
  );
}
