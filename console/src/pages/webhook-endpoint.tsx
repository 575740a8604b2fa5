import { Code, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate, useParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { WebhookAttempt } from '../api/types';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { PagedTable } from '../components/paged-table';
import { Field, IdLink, Status, Time } from '../components/values';

function RedeliverButton({ attempt, endpointId }: { attempt: WebhookAttempt; endpointId: string }) {
  const { t } = useTranslation();
  return (
    <ActionButton
      scope="webhooks:write"
      label={t('endpoint.redeliver.label')}
      variant="default"
      confirm={{
        title: t('endpoint.redeliver.title'),
        effect: t('endpoint.redeliver.effect'),
        confirmLabel: t('endpoint.redeliver.confirm'),
      }}
      run={async (key) =>
        unwrap(await api.POST('/api/v1/events/{id}/redeliver', { params: { path: { id: attempt.eventId } }, body: { endpointId }, headers: { 'Idempotency-Key': key } }))
      }
      done={() => t('endpoint.redeliver.done')}
    />
  );
}

export default function EndpointPage() {
  const { t } = useTranslation();
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
        <Trans i18nKey="endpoint.title" components={{ status: <Status value={e.enabled ? 'active' : 'paused'} /> }} />
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('endpoint.url')}>
          <Code>{e.url}</Code>
        </Field>
        <Field label={t('endpoint.events')}>{e.events.join(', ')}</Field>
        <Field label={t('endpoint.description')}>{e.description ?? '—'}</Field>
        <Field label={t('endpoint.failedInARow')}>{e.consecutiveFailures}</Field>
        <Field label={t('endpoint.created')}>
          <Time value={e.createdAt} />
        </Field>
      </SimpleGrid>
      <Group>
        <ActionButton
          scope="webhooks:write"
          label={e.enabled ? t('endpoint.pause.label') : t('endpoint.enable')}
          color={e.enabled ? 'yellow' : 'green'}
          confirm={
            e.enabled
              ? { title: t('endpoint.pause.title'), effect: t('endpoint.pause.effect'), confirmLabel: t('endpoint.pause.confirm') }
              : undefined
          }
          run={async (key) => unwrap(await api.PATCH('/api/v1/webhook-endpoints/{id}', { params: { path: { id } }, body: { enabled: !e.enabled }, headers: { 'Idempotency-Key': key } }))}
          done={(r) => (r.enabled ? t('endpoint.nowEnabled') : t('endpoint.nowPaused'))}
        />
        <ActionButton
          scope="webhooks:write"
          label={t('endpoint.delete.label')}
          color="red"
          confirm={{
            title: t('endpoint.delete.title'),
            effect: t('endpoint.delete.effect', { url: e.url }),
            confirmLabel: t('endpoint.delete.confirm'),
          }}
          run={async (key) => unwrap(await api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id } }, headers: { 'Idempotency-Key': key } }))}
          done={() => t('endpoint.delete.done')}
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
            {t('endpoint.deliveries')}
          </Title>
          <PagedTable<WebhookAttempt>
            caption={t('endpoint.deliveriesCaption')}
            queryKey={['webhook-deliveries', id]}
            fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query: { cursor, limit: 20 } } }))}
            rowKey={(a) => a.id}
            empty={t('endpoint.noDelivery')}
            columns={[
              { header: t('col.event'), cell: (a) => <IdLink to={`/events/${a.eventId}`} id={a.eventId} /> },
              { header: t('col.type'), cell: (a) => a.eventType ?? '—' },
              { header: t('col.attempt'), cell: (a) => a.attempt },
              { header: t('col.result'), cell: (a) => <Status value={a.status} /> },
              { header: t('col.http'), cell: (a) => a.responseStatus ?? '—' },
              { header: t('col.time'), cell: (a) => t('endpoint.ms', { ms: a.durationMs }) },
              { header: t('col.error'), cell: (a) => a.error ?? '—' },
              { header: t('col.sent'), cell: (a) => <Time value={a.createdAt} /> },
              { header: t('col.nextTry'), cell: (a) => <Time value={a.nextAttemptAt} /> },
              { header: t('col.actions'), cell: (a) => <RedeliverButton attempt={a} endpointId={id} /> },
            ]}
          />
        </section>
      )}
    </Stack>
  );
}
