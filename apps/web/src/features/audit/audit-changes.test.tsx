import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuditChanges } from './audit-changes';

const rowOf = (field: string) => screen.getByRole('rowheader', { name: field }).closest('tr')!;

describe('AuditChanges', () => {
  it('shows each changed field by its label, with its value before and after, as staff read them', () => {
    render(
      <AuditChanges
        before={{
          name: 'Pune Cabs',
          disabled: false,
          state: 'maharashtra',
          deletedAt: null,
          email: 'a@b.in',
          language: null,
        }}
        after={{
          name: 'Pune Cabs Ltd',
          disabled: true,
          state: 'goa',
          deletedAt: '2026-11-24T14:39:37.049Z',
          email: 'a@b.in',
          language: 'hi',
        }}
      />,
    );
    expect(within(rowOf('Name')).getByRole('deletion')).toHaveTextContent('Pune Cabs');
    expect(within(rowOf('Name')).getByRole('insertion')).toHaveTextContent('Pune Cabs Ltd');
    expect(rowOf('Disabled')).toHaveTextContent(/NoYes/);
    expect(rowOf('State')).toHaveTextContent(/MaharashtraGoa/);
    // A moment in India Standard Time (14:39 UTC is 8:09 pm in India), nothing as "(empty)".
    expect(rowOf('Deleted')).toHaveTextContent('(empty)24/11/2026, 8:09 pm');
    // A language by its own name, as the header's switch names it.
    expect(rowOf('Language')).toHaveTextContent('(empty)हिन्दी');
    // A field that did not change is left out.
    expect(screen.queryByRole('rowheader', { name: 'Email' })).toBeNull();
  });

  it('spells out a field it has no label for', () => {
    render(<AuditChanges before={null} after={{ firstRegistered: '2020-01-01', per_km: 12 }} />);
    expect(screen.getByRole('rowheader', { name: 'First registered' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Per km' })).toBeInTheDocument();
  });

  it("names a grievance's and an alert's values by the words of their screens", () => {
    render(
      <AuditChanges
        type="grievances"
        before={{ status: 'in_progress', priority: 'normal' }}
        after={{ status: 'resolved', priority: 'urgent' }}
      />,
    );
    expect(screen.getByText('In progress')).toBeInTheDocument();
    expect(screen.getByText('Urgent')).toBeInTheDocument();
    render(
      <AuditChanges type="sos" before={{ status: 'open' }} after={{ status: 'escalated', to: 'police' }} />,
    );
    expect(screen.getByText('Escalated')).toBeInTheDocument();
    expect(screen.queryByText('police')).not.toBeInTheDocument();
  });

  it('says so when a change recorded no values', () => {
    render(<AuditChanges before={null} after={{ status: 'same' }} />);
    expect(screen.getByRole('rowheader', { name: 'Status' })).toBeInTheDocument();
    render(<AuditChanges before={{ a: 1 }} after={{ a: 1 }} />);
    expect(screen.getByText('No values recorded.')).toBeInTheDocument();
  });
});
