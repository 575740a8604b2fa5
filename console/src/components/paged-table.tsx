import { Button, Group, Loader, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../api/types';
import { ErrorNotice } from './error-notice';
import { RowsTable } from './rows-table';

export interface Column<T> {
  header: string;
  cell: (row: T) => React.ReactNode;
}

/**
 * One page of a server-side list at a time: the daemon pages with cursors (newest first), so a list of 10,000
 * subscriptions costs the same as a list of ten. Going back uses the cursors already seen.
 */
export function PagedTable<T>(props: {
  /** What the list is (filters included): a new key starts again at the first page. */
  queryKey: readonly unknown[];
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  caption: string;
  empty?: string;
}) {
  const { t } = useTranslation();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [forKey, setForKey] = useState(JSON.stringify(props.queryKey));
  const key = JSON.stringify(props.queryKey);
  if (key !== forKey) {
    setForKey(key);
    setCursors([undefined]);
  }
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({ queryKey: [...props.queryKey, 'page', cursor ?? null], queryFn: () => props.fetchPage(cursor), placeholderData: keepPreviousData });

  if (page.error) return <ErrorNotice error={page.error} />;
  // A role, so its label is allowed (axe: aria-prohibited-attr) and read out while the page loads.
  if (!page.data) return <Loader size="sm" role="status" aria-label={t('common.loading')} />;
  const next = page.data.nextCursor ?? null;
  return (
    <div>
      <RowsTable caption={props.caption} columns={props.columns} rows={page.data.items} rowKey={props.rowKey} busy={page.isFetching} />
      {page.data.items.length === 0 && (
        <Text py="sm" c="gray.8">
          {props.empty ?? t('common.nothingHere')}
        </Text>
      )}
      <Group justify="space-between" mt="xs">
        <Text size="sm" c="gray.8">
          {t('common.page', { page: cursors.length })}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
            {t('common.newer')}
          </Button>
          <Button variant="default" size="xs" disabled={next === null} onClick={() => next !== null && setCursors((c) => [...c, next])}>
            {t('common.older')}
          </Button>
        </Group>
      </Group>
    </div>
  );
}
