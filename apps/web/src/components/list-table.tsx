import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A list screen's striped table under its column headings; it scrolls sideways when narrower than `minWidth`. */
export function ListTable({
  minWidth,
  columns,
  label,
  children,
}: {
  minWidth: number;
  columns: ReactNode[];
  label?: string;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              // The columns are fixed for a table's life, so their places are stable keys.
              <Table.Th key={index}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
