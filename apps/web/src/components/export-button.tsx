import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { downloadTicketResponseSchema } from '@bmet/shared/schemas/download-ticket';
import { apiRequest } from '../lib/api-client';
import { currentLanguage } from '../lib/language';
import { showNotification } from '../lib/notify';

/** A list's filters and search as they are on screen; empty ones are left out. */
export type ExportQuery = Record<string, string | number | boolean | null | undefined>;

/** The address of an export under /api with the list's query and the language of the screen. */
export function exportAddress(path: string, query: ExportQuery, language: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  params.set('lang', language);
  return `/api${path}?${params.toString()}`;
}

/**
 * Hands the download to the browser's own download manager, which writes it to disk as it
 * arrives: the file never sits in the page's memory, however many rows it has.
 */
function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  // The server names the file (Content-Disposition).
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * "Export CSV" for a list: every row matching the filters and search on screen, streamed by the
 * server. The bearer token cannot go with a download, so a single-use ticket is asked for first
 * (docs/decisions/013-streamed-exports.md); a refusal shows the server's message.
 */
export function ExportButton({
  path,
  query,
  label,
}: {
  path: string;
  query: ExportQuery;
  /** Another export of the same list (the drivers' checks): what it holds. */
  label?: string;
}) {
  const [starting, setStarting] = useState(false);
  const start = async () => {
    setStarting(true);
    try {
      const { data } = await apiRequest<typeof downloadTicketResponseSchema>(
        'POST',
        '/auth/download-tickets',
        { body: { url: exportAddress(path, query, currentLanguage()) } },
      );
      startDownload(data.url);
      showNotification({ color: 'teal', message: m.exportStarted() });
    } catch (error) {
      showNotification({ color: 'red', message: (error as Error).message });
    } finally {
      setStarting(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={starting}
      aria-busy={starting}
      onClick={() => void start()}
    >
      {label ?? m.exportCsv()}
    </Button>
  );
}
