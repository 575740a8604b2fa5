import { Table } from '@mantine/core';
import type { Column } from './paged-table';

/**
 * Rows under a named caption, in a box that scrolls by itself on a narrow screen (focusable, so a keyboard can scroll
 * it even when it holds no link); the page itself never scrolls sideways.
 */
export function RowsTable<T>(props: { caption: string; columns: Column<T>[]; rows: readonly T[]; rowKey: (row: T) => string; busy?: boolean }) {
  return (
    <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label={props.caption}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-busy={props.busy}>
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
          {props.rows.map((row) => (
            <Table.Tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
