import { Anchor, Code, Group, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { Field, Json, Time } from '../components/values';
import { objectLink } from './events';

export default function EventPage() {
  const { id = '' } = useParams();
  const event = useQuery({ queryKey: ['event', id], queryFn: async () => unwrap(await api.GET('/api/v1/events/{id}', { params: { path: { id } } })) });
  const endpoints = useQuery({ queryKey: ['webhook-endpoints', 'for-redelivery'], queryFn: async () => unwrap(await api.GET('/api/v1/webhook-endpoints', { params: { query: { limit: 100 } } })) });
  const [endpointId, setEndpointId] = useState('');
  if (event.error) return <ErrorNotice error={event.error} />;
  const e = event.data;
  if (!e) return null;
  const to = objectLink(e);
  return (
    <Stack>
      <Title order={1} size="h2">
        Event {e.type}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label="Id">
          <Code>{e.id}</Code>
        </Field>
        <Field label="When">
          <Time value={e.createdAt} />
        </Field>
        <Field label="About">
          {to ? (
            <Anchor component={Link} to={to}>
              {to.split('/')[1].replace(/s$/, '')} {to.split('/')[2].slice(0, 8)}
            </Anchor>
          ) : (
            '—'
          )}
        </Field>
      </SimpleGrid>
      <Group align="flex-end">
        <Select
          label="Send again to"
          w={360}
          data={[{ value: '', label: 'every endpoint that takes this type' }, ...(endpoints.data?.items ?? []).map((ep) => ({ value: ep.id, label: ep.url }))]}
          value={endpointId}
          onChange={(v) => setEndpointId(v ?? '')}
          allowDeselect={false}
        />
        <ActionButton
          scope="webhooks:write"
          label="Redeliver"
          confirm={{
            title: 'Send this event again?',
            effect: 'The same body, with the same webhook-id, is sent again; receivers that deduplicate by webhook-id ignore it if they already have it.',
            confirmLabel: 'Redeliver',
          }}
          run={async (key) =>
            unwrap(await api.POST('/api/v1/events/{id}/redeliver', { params: { path: { id } }, body: endpointId ? { endpointId } : {}, headers: { 'Idempotency-Key': key } }))
          }
          done={(r) => `Queued ${r.deliveries.length} new deliver${r.deliveries.length === 1 ? 'y' : 'ies'}; each is listed under its endpoint.`}
        />
      </Group>
      <Title order={2} size="h4">
        Body
      </Title>
      <Json value={e} />
    </Stack>
  );
}
