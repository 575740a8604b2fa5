import { Alert, Button, Code, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { WebhookEndpoint } from '../api/types';
import { useAllows } from '../api/use-allows';
import { useWrite } from '../api/use-write';
import { ErrorNotice } from '../components/error-notice';
import { PagedTable } from '../components/paged-table';
import { IdLink, Status, Time } from '../components/values';
import { EVENT_TYPES } from '../../../src/events/event-types';

type Created = { id: string; url: string; secret?: unknown };

function NewEndpointForm() {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const create = useWrite(
    async (_: void, key: string) =>
      unwrap(
        await api.POST('/api/v1/webhook-endpoints', {
          // Sent even when every type is wanted (`*`): the answer says which types the endpoint takes either way.
          body: { url, events: events.length > 0 ? (events as (typeof EVENT_TYPES)[number][]) : ['*'], ...(description && { description }) },
          headers: { 'Idempotency-Key': key },
        }),
      ) as Created,
    (endpoint) => {
      setCreated(endpoint);
      setUrl('');
      setEvents([]);
      setDescription('');
    },
  );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.send(undefined);
      }}
    >
      <Stack gap="xs">
        <Group align="flex-end">
          <TextInput label={t('endpoints.url')} placeholder={t('endpoints.urlPlaceholder')} value={url} onChange={(e) => setUrl(e.currentTarget.value)} required w={360} />
          <MultiSelect label={t('endpoints.eventTypes')} placeholder={t('endpoints.everyType')} data={[...EVENT_TYPES]} value={events} onChange={setEvents} w={320} clearable />
          <TextInput label={t('endpoints.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} w={220} />
          <Button type="submit" loading={create.mutation.isPending}>
            {t('endpoints.add')}
          </Button>
        </Group>
        {create.mutation.error && <ErrorNotice error={create.mutation.error} />}
        {created && (
          <Alert variant="default" title={t('endpoints.added')} role="status" withCloseButton closeButtonLabel={t('common.dismiss')} onClose={() => setCreated(null)}>
            <Text size="sm">
              <Trans i18nKey="endpoints.secret" values={{ url: created.url }} components={{ secret: <Code data-testid="endpoint-secret">{String(created.secret)}</Code> }} />
            </Text>
          </Alert>
        )}
      </Stack>
    </form>
  );
}

export default function EndpointsPage() {
  const { t } = useTranslation();
  const mayWrite = useAllows('webhooks:write');
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('endpoints.title')}
      </Title>
      {mayWrite && <NewEndpointForm />}
      <PagedTable<WebhookEndpoint>
        caption={t('endpoints.caption')}
        queryKey={['webhook-endpoints']}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/webhook-endpoints', { params: { query: { cursor, limit: 25 } } }))}
        rowKey={(e) => e.id}
        empty={t('endpoints.empty')}
        columns={[
          { header: t('col.endpoint'), cell: (e) => <IdLink to={`/webhook-endpoints/${e.id}`} id={e.id} /> },
          { header: t('col.url'), cell: (e) => e.url },
          { header: t('col.events'), cell: (e) => e.events.join(', ') },
          { header: t('col.state'), cell: (e) => <Status value={e.enabled ? 'active' : 'paused'} /> },
          { header: t('col.failuresInARow'), cell: (e) => e.consecutiveFailures },
          { header: t('col.created'), cell: (e) => <Time value={e.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
