import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GrievanceCategory, GrievanceClock, GrievancePriority } from '@bmet/shared/grievance-rules';
import type { driverDetailResponseSchema } from '@bmet/shared/schemas/driver';
import type {
  CreateGrievanceBody,
  GRIEVANCE_SORTS,
  GRIEVANCE_STATUS_FILTERS,
  UpdateGrievanceBody,
  GrievanceAttachment,
  grievanceAttachmentResponseSchema,
  grievanceDetailResponseSchema,
  grievanceEventResponseSchema,
  grievanceListResponseSchema,
  grievanceOfficerResponseSchema,
  grievanceReportResponseSchema,
  driversNeedingActionResponseSchema,
  grievanceResponseSchema,
  holidayListResponseSchema,
  holidayResponseSchema,
} from '@bmet/shared/schemas/grievance';
import type {
  deskRulesResponseSchema,
  PutDeskRulesBody,
  StateDeskRules,
  stateDeskRulesResponseSchema,
} from '@bmet/shared/schemas/desk-rules';
import type { State } from '@bmet/shared/constants';
import type { adminEmailsResponseSchema } from '@bmet/shared/schemas/password';
import type { SortOrder } from '@bmet/shared/schemas/sort';
import type { z } from 'zod';
import { ApiError, apiRequest, authorizedFetch } from '../../lib/api-client';
import { showNotification } from '../../lib/notify';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

export type GrievanceSort = (typeof GRIEVANCE_SORTS)[number];
export type GrievanceStatusFilter = (typeof GRIEVANCE_STATUS_FILTERS)[number];

/** What the desk shows: its search, filters and sort (none: soonest deadline first). */
export type GrievanceListView = {
  q: string;
  status?: GrievanceStatusFilter;
  category?: GrievanceCategory;
  priority?: GrievancePriority;
  clock?: GrievanceClock;
  driverId?: string;
  tripId?: string;
  sort?: GrievanceSort;
  order?: SortOrder;
};

export const grievanceKeys = {
  all: ['grievances'] as const,
  list: (view: GrievanceListView) => ['grievances', 'list', view] as const,
  detail: (id: string) => ['grievances', 'detail', id] as const,
  holidays: (year: number) => ['grievances', 'holidays', year] as const,
  officer: ['grievances', 'officer'] as const,
  rules: ['grievances', 'rules'] as const,
};

const search = (params: Record<string, string | number | undefined>) => {
  const found = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') found.set(key, String(value));
  return found.toString();
};

export function useGrievanceList(view: GrievanceListView) {
  return useCursorList(
    grievanceKeys.list(view),
    (cursor, signal) =>
      apiRequest<typeof grievanceListResponseSchema>(
        'GET',
        `/grievances?${search({ ...view, limit: 50, cursor: cursor ?? undefined })}`,
        { signal },
      ),
    { keepShown: true },
  );
}

export function useGrievance(id: string) {
  return useQuery({
    queryKey: grievanceKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof grievanceDetailResponseSchema>('GET', `/grievances/${id}`, { signal }).then(
        (r) => r.data,
      ),
  });
}

export function useCreateGrievance() {
  return useInvalidatingMutation(grievanceKeys.all, (body: CreateGrievanceBody) =>
    apiRequest<typeof grievanceResponseSchema>('POST', '/grievances', { body }).then((r) => r.data),
  );
}

export function useUpdateGrievance(id: string) {
  return useInvalidatingMutation(grievanceKeys.all, (body: UpdateGrievanceBody) =>
    apiRequest<typeof grievanceResponseSchema>('PATCH', `/grievances/${id}`, { body }).then((r) => r.data),
  );
}

export function useCommentGrievance(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      apiRequest<typeof grievanceEventResponseSchema>('POST', `/grievances/${id}/comments`, {
        body: { text },
      }).then((r) => r.data),
    onSuccess: () => client.invalidateQueries({ queryKey: grievanceKeys.detail(id) }),
  });
}

/** The holidays of a year, national and of every state, in date order. */
export function useHolidays(year: number) {
  return useQuery({
    queryKey: grievanceKeys.holidays(year),
    queryFn: ({ signal }) =>
      apiRequest<typeof holidayListResponseSchema>('GET', `/holidays?year=${year}`, { signal }).then(
        (r) => r.data,
      ),
  });
}

export function useCreateHoliday() {
  return useInvalidatingMutation(
    ['grievances', 'holidays'],
    (body: { day: string; state: string | null; name: string }) =>
      apiRequest<typeof holidayResponseSchema>('POST', '/holidays', { body }).then((r) => r.data),
  );
}

export function useDeleteHoliday() {
  return useInvalidatingMutation(['grievances', 'holidays'], (id: string) =>
    apiRequest('DELETE', `/holidays/${id}`),
  );
}

/** A month's figures: received, resolved in and after time, overdue, median hours; by category and franchise. */
export function useGrievanceReport(month: string) {
  return useQuery({
    queryKey: ['grievances', 'report', month],
    queryFn: ({ signal }) =>
      apiRequest<typeof grievanceReportResponseSchema>('GET', `/grievances/report?${search({ month })}`, {
        signal,
      }).then((r) => r.data),
  });
}

/** The drivers of the caller's scope past the guidelines' thresholds in a month. */
export function useDriversNeedingAction(month: string) {
  return useQuery({
    queryKey: ['grievances', 'drivers-needing-action', month],
    queryFn: ({ signal }) =>
      apiRequest<typeof driversNeedingActionResponseSchema>(
        'GET',
        `/grievances/drivers-needing-action?${search({ month })}`,
        { signal },
      ).then((r) => r.data),
  });
}

export function useGrievanceOfficer() {
  return useQuery({
    queryKey: grievanceKeys.officer,
    queryFn: ({ signal }) =>
      apiRequest<typeof grievanceOfficerResponseSchema>('GET', '/grievances/officer', { signal }).then(
        (r) => r.data,
      ),
  });
}

export function useSetGrievanceOfficer() {
  return useInvalidatingMutation(grievanceKeys.officer, (email: string | null) =>
    apiRequest<typeof grievanceOfficerResponseSchema>('PUT', '/grievances/officer', {
      body: { email },
    }).then((r) => r.data),
  );
}

/** The admins' emails, from which the officer is chosen. */
export function useAdminEmails() {
  return useQuery({
    queryKey: ['grievances', 'admins'],
    queryFn: ({ signal }) =>
      apiRequest<typeof adminEmailsResponseSchema>('GET', '/get-admins', { signal }).then((r) => r.data),
  });
}

/** The name of a driver a grievance is logged about from the driver's page, for the picker. */
export function useDriverName(id: string | null) {
  return useQuery({
    queryKey: ['grievances', 'driver-name', id],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverDetailResponseSchema>('GET', `/drivers/driver/${id}`, { signal }).then(
        (r) => r.data.name,
      ),
    enabled: Boolean(id),
  });
}

/** Attaches a file the complainant sent: the raw file, its name in X-File-Name. */
export function useUploadAttachment(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const response = await authorizedFetch(`/grievances/${id}/attachments`, {
        method: 'POST',
        headers: {
          'content-type': file.type || 'application/octet-stream',
          'x-file-name': encodeURIComponent(file.name),
        },
        body: file,
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw ApiError.fromBody(response.status, body);
      return (body as z.output<typeof grievanceAttachmentResponseSchema>).data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: grievanceKeys.detail(id) }),
  });
}

/**
 * Opens a grievance's file: fetched with the bearer token (never a public address), then shown by
 * the browser (an image) or saved (a PDF) under its name.
 */
export function useAttachmentDownload(id: string) {
  return async (file: GrievanceAttachment) => {
    const response = await authorizedFetch(`/grievances/${id}/attachments/${file.id}`);
    if (!response.ok) {
      const body: unknown = await response.json().catch(() => null);
      showNotification({ color: 'red', message: ApiError.fromBody(response.status, body).message });
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    if (file.contentType === 'application/pdf') link.download = file.fileName;
    else link.target = '_blank';
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
}

/** Every state's grievance and SOS rules, today and saved for later days (30 small entries). */
export function useDeskRules() {
  return useQuery({
    queryKey: grievanceKeys.rules,
    queryFn: ({ signal }) =>
      apiRequest<typeof deskRulesResponseSchema>('GET', '/desk-rules', { signal }).then((r) => r.data),
  });
}

/**
 * Saves a state's rules from a day on; the answer replaces its entry, and the desk's lists are
 * asked again, since deadlines may have moved.
 */
export function useSaveDeskRules(state: State) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutDeskRulesBody) =>
      apiRequest<typeof stateDeskRulesResponseSchema>('PUT', `/desk-rules/${encodeURIComponent(state)}`, {
        body,
      }).then((r) => r.data),
    onSuccess: (entry) => {
      client.setQueryData<StateDeskRules[]>(grievanceKeys.rules, (all) =>
        all?.map((other) => (other.state === entry.state ? entry : other)),
      );
      void client.invalidateQueries({ queryKey: ['grievances', 'list'] });
      void client.invalidateQueries({ queryKey: ['grievances', 'detail'] });
    },
  });
}
