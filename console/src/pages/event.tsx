import { Anchor, Code, Group, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { ActionButton } from '../components/action-button';
import { ErrorNotice } from '../components/error-notice';
import { Field, Json, Time } from '../components/values';
import { useValueLabel } from '../i18n/value-label';
import { objectLink } from '../components/event-link';

export default function EventPage() {
  const { t } = useTranslation();
  const valueLabel = useValueLabel();
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
        {t('event.title', { type: e.type })}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Field label={t('event.id')}>
          <Code>{e.id}</Code>
        </Field>
        <Field label={t('event.when')}>
          <Time value={e.createdAt} />
        </Field>
        <Field label={t('event.about')}>
          {to ? (
            <Anchor component={Link} to={to}>
              {valueLabel('event.object', to.split('/')[1].replace(/s$/, ''))} {to.split('/')[2].slice(0, 8)}
            </Anchor>
          ) : (
            '—'
          )}
        </Field>
      </SimpleGrid>
      <Group align="flex-end">
        <Select
          label={t('event.sendTo')}
          w={360}
          data={[{ value: '', label: t('event.everyEndpoint') }, ...(endpoints.data?.items ?? []).map((ep) => ({ value: ep.id, label: ep.url }))]}
          value={endpointId}
          onChange={(v) => setEndpointId(v ?? '')}
          allowDeselect={false}
        />
        <ActionButton
          scope="webhooks:write"
          label={t('event.redeliver.label')}
          confirm={{
            title: t('event.redeliver.title'),
            effect: t('event.redeliver.effect'),
            confirmLabel: t('event.redeliver.confirm'),
          }}
          run={async (key) =>
            unwrap(await api.POST('/api/v1/events/{id}/redeliver', { params: { path: { id } }, body: endpointId ? { endpointId } : {}, headers: { 'Idempotency-Key': key } }))
          }
          done={(r) => t('event.redeliver.done', { count: r.deliveries.length })}
        />
      </Group>
      <Title order={2} size="h4">
        {t('event.body')}
      </Title>
      <Json value={e} />
    </Stack>
  );
}
