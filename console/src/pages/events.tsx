import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EVENT_TYPES } from '../../../src/events/event-types';
import { api, unwrap } from '../api/client';
import type { ListedEvent, MerchantEvent } from '../api/types';
import { EventAbout } from '../components/event-about';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Time } from '../components/values';

export default function EventsPage() {
  const { t } = useTranslation();
  const [type, setType] = useFilter('type');
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('events.title')}
      </Title>
      {/* Every type a merchant can receive, from the daemon's own list: a new type shows up here by itself. */}
      <StatusFilter label={t('events.type')} group={null} values={EVENT_TYPES} value={type} onChange={setType} />
      <PagedTable<ListedEvent>
        caption={t('events.caption')}
        queryKey={['events', { type }]}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/events', { params: { query: { type: type as MerchantEvent['type'] | undefined, cursor, limit: 25 } } }))}
        rowKey={(e) => e.id}
        empty={t('events.empty')}
        columns={[
          { header: t('col.event'), cell: (e) => <IdLink to={`/events/${e.id}`} id={e.id} /> },
          { header: t('col.type'), cell: (e) => e.type },
          { header: t('col.about'), cell: (e) => <EventAbout event={e} /> },
          { header: t('col.when'), cell: (e) => <Time value={e.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
