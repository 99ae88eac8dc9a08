import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ListTable } from './list-table';

function renderTable(field: 'name' | 'createdAt', order: 'asc' | 'desc', onSort = vi.fn()) {
  render(
    <ListTable
      label="People"
      sorting={{ field, order, onSort }}
      columns={[{ label: 'Name', sort: 'name' }, 'Email', { label: 'Joined', sort: 'createdAt' }]}
    >
      <tr>
        <td>Asha</td>
        <td>asha@example.test</td>
        <td>today</td>
      </tr>
    </ListTable>,
  );
  return onSort;
}

describe('ListTable', () => {
  it('names each column and says which one the rows are sorted by, and how', () => {
    renderTable('name', 'desc');
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Email', 'Joined']);
    expect(headers[0]).toHaveAttribute('aria-sort', 'descending');
    expect(headers[1]).not.toHaveAttribute('aria-sort');
    expect(headers[2]).toHaveAttribute('aria-sort', 'none');
    // Only sortable columns are buttons.
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Name', 'Joined']);
  });

  it('sorts by a column from its heading, with the mouse or the keyboard', async () => {
    const onSort = renderTable('name', 'asc');
    await userEvent.click(screen.getByRole('button', { name: 'Joined' }));
    expect(onSort).toHaveBeenLastCalledWith('createdAt');
    screen.getByRole('button', { name: 'Name' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onSort).toHaveBeenLastCalledWith('name');
    await userEvent.keyboard(' ');
    expect(onSort).toHaveBeenCalledTimes(3);
  });
});
