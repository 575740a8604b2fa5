import { Alert, Button, Code, Group, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
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
          <TextInput label="URL" placeholder="https://merchant.example/webhooks" value={url} onChange={(e) => setUrl(e.currentTarget.value)} required w={360} />
          <MultiSelect label="Event types" placeholder="every type" data={[...EVENT_TYPES]} value={events} onChange={setEvents} w={320} clearable />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} w={220} />
          <Button type="submit" loading={create.mutation.isPending}>
            Add endpoint
          </Button>
        </Group>
        {create.mutation.error && <ErrorNotice error={create.mutation.error} />}
        {created && (
          <Alert variant="default" title="Endpoint added" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setCreated(null)}>
            <Text size="sm">
              {created.url}: its signing secret is shown this once, copy it now: <Code data-testid="endpoint-secret">{String(created.secret)}</Code>
            </Text>
          </Alert>
        )}
      </Stack>
    </form>
  );
}

export default function EndpointsPage() {
  const mayWrite = useAllows('webhooks:write');
  return (
    <Stack>
      <Title order={1} size="h2">
        Webhook endpoints
      </Title>
      {mayWrite && <NewEndpointForm />}
      <PagedTable<WebhookEndpoint>
        caption="Webhook endpoints, newest first"
        queryKey={['webhook-endpoints']}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/webhook-endpoints', { params: { query: { cursor, limit: 25 } } }))}
        rowKey={(e) => e.id}
        empty="No endpoint yet: events are kept, but sent nowhere."
        columns={[
          { header: 'Endpoint', cell: (e) => <IdLink to={`/webhook-endpoints/${e.id}`} id={e.id} /> },
          { header: 'URL', cell: (e) => e.url },
          { header: 'Events', cell: (e) => e.events.join(', ') },
          { header: 'State', cell: (e) => <Status value={e.enabled ? 'active' : 'paused'} /> },
          { header: 'Failures in a row', cell: (e) => e.consecutiveFailures },
          { header: 'Created', cell: (e) => <Time value={e.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
