import type { QueryKey } from '@tanstack/react-query';
import type { SosOutcome, SosPerson, SosEscalation, SosAction } from '@bmet/shared/sos-rules';
import type { sosAlertResponseSchema, sosListResponseSchema, SosAlert } from '@bmet/shared/schemas/sos';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

export const SOS_KEY: QueryKey = ['sos'];

export type SosHistoryFilters = { outcome?: SosOutcome; from?: string; to?: string };

function listPath(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return `/sos?${params.toString()}`;
}

/** One page of alerts. */
export function loadSosPage(query: Record<string, string | undefined>, signal?: AbortSignal) {
  return apiRequest<typeof sosListResponseSchema>('GET', listPath(query), { signal });
}

/** Every alert not yet resolved, oldest first (the control room's top). */
export function useOpenAlerts() {
  return useCursorList([...SOS_KEY, 'open'], (cursor, signal) =>
    loadSosPage({ status: 'open', sort: 'raisedAt', order: 'asc', limit: '100', cursor }, signal),
  );
}

/** The resolved alerts, newest first, filtered. */
export function useSosHistory(filters: SosHistoryFilters) {
  return useCursorList(
    [...SOS_KEY, 'history', filters],
    (cursor, signal) =>
      loadSosPage(
        { status: 'resolved', sort: 'raisedAt', order: 'desc', limit: '20', cursor, ...filters },
        signal,
      ),
    { keepShown: true },
  );
}

export type SosStep = { action: SosAction; to?: SosEscalation; outcome?: SosOutcome; note?: string };

/** A step on an alert (acknowledge, escalate, resolve). */
export function takeSosStep(id: string, step: SosStep): Promise<SosAlert> {
  return apiRequest<typeof sosAlertResponseSchema>('PATCH', `/sos/${id}`, { body: step }).then((r) => r.data);
}

export function useSosStep() {
  return useInvalidatingMutation(SOS_KEY, ({ id, step }: { id: string; step: SosStep }) =>
    takeSosStep(id, step),
  );
}

export type NewSos = { person: SosPerson; driverId?: string | null; tripId?: string | null; note?: string };

export function useLogSos() {
  return useInvalidatingMutation(SOS_KEY, (body: NewSos) =>
    apiRequest<typeof sosAlertResponseSchema>('POST', '/sos', { body }).then((r) => r.data),
  );
}
