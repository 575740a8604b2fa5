import { Stack, Title } from '@mantine/core';
import { EVENT_TYPES } from '../../../src/events/event-types';
import { api, unwrap } from '../api/client';
import type { MerchantEvent } from '../api/types';
import { StatusFilter, useFilter } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { IdLink, Time } from '../components/values';

const OBJECT_PAGES: Record<string, string> = { customer: '/customers', subscription: '/subscriptions', charge: '/charges', payout: '/payouts' };

/** The console page of the object an event is about: `subscription.canceled` → /subscriptions/<id>. */
export function objectLink(event: MerchantEvent): string | null {
  const id = (event.data.object as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return null;
  const base = OBJECT_PAGES[event.type.split('.')[0]];
  return base ? `${base}/${id}` : null;
}

export default function EventsPage() {
  const [type, setType] = useFilter('type');
  return (
    <Stack>
      <Title order={1} size="h2">
        Events
      </Title>
      {/* Every type a merchant can receive, from the daemon's own list: a new type shows up here by itself. */}
      <StatusFilter label="Type" values={EVENT_TYPES} value={type} onChange={setType} />
      <PagedTable<MerchantEvent>
        caption="Events, newest first"
        queryKey={['events', { type }]}
        fetchPage={async (cursor) => unwrap(await api.GET('/api/v1/events', { params: { query: { type: type as MerchantEvent['type'] | undefined, cursor, limit: 25 } } }))}
        rowKey={(e) => e.id}
        empty="No event matches."
        columns={[
          { header: 'Event', cell: (e) => <IdLink to={`/events/${e.id}`} id={e.id} /> },
          { header: 'Type', cell: (e) => e.type },
          {
            header: 'About',
            cell: (e) => {
              const to = objectLink(e);
              const id = (e.data.object as { id?: string }).id ?? '';
              return to ? <IdLink to={to} id={id} /> : '—';
            },
          },
          { header: 'When', cell: (e) => <Time value={e.createdAt} /> },
        ]}
      />
    </Stack>
  );
}
