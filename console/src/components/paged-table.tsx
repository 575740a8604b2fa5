import { Button, Group, Loader, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../api/types';
import { ErrorNotice } from './error-notice';

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
  if (!page.data) return <Loader size="sm" aria-label={t('common.loading')} />;
  const next = page.data.nextCursor ?? null;
  return (
    <div>
      {/* On a narrow screen the table scrolls inside its own box; the page itself never scrolls sideways. */}
      {/* Focusable, so a keyboard can scroll it on a narrow screen even when it holds no link. */}
      <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label={props.caption}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-busy={page.isFetching}>
          <caption style={{ position: 'absolute', left: -10000 }}>{props.caption}</caption>
          <Table.Thead>
            <Table.Tr>
              {props.columns.map((c) => (
                <Table.Th key={c.header} scope="col">
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.data.items.map((row) => (
              <Table.Tr key={props.rowKey(row)}>
                {props.columns.map((c) => (
                  <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
