import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GrievanceAttachment } from '@bmet/shared/schemas/grievance';
import { formatFileSize, GrievanceAttachments } from './grievance-attachments';

const file = (id: number, name: string, size: number): GrievanceAttachment => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  fileName: name,
  contentType: name.endsWith('.pdf') ? 'application/pdf' : 'image/png',
  size,
  uploadedByName: 'Asha Rao',
  uploadedAt: '2026-11-29T04:30:00.000Z',
});

function show(attachments: GrievanceAttachment[]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <GrievanceAttachments grievanceId="00000000-0000-4000-8000-000000000000" attachments={attachments} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe("a grievance's files", () => {
  it('lists each file with its size, who attached it and when (IST), and offers to attach another', () => {
    show([file(1, 'receipt.png', 840 * 1024), file(2, 'bill.pdf', 2.4 * 1024 * 1024)]);
    expect(screen.getByRole('button', { name: 'receipt.png' })).toBeInTheDocument();
    expect(screen.getByText(/840 KB · by Asha Rao · 29\/11\/2026/)).toBeInTheDocument();
    expect(screen.getByText(/2\.4 MB/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Attach a file' })).toBeEnabled();
  });

  it('says when there is none', () => {
    show([]);
    expect(screen.getByText('No files attached.')).toBeInTheDocument();
  });

  it('refuses an eleventh file before it is sent', () => {
    show(Array.from({ length: 10 }, (_, i) => file(i, `photo-${i}.png`, 1000)));
    expect(screen.getByRole('button', { name: 'Attach a file' })).toBeDisabled();
    expect(screen.getByText('A grievance holds at most 10 files.')).toBeInTheDocument();
  });

  it('writes sizes as staff read them', () => {
    expect(formatFileSize(100)).toBe('1 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
