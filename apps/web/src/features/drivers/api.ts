import type { z } from 'zod';
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentKey, Role, State } from '@bmet/shared/constants';
import type {
  deviceTokensResponseSchema,
  driverDetailResponseSchema,
  driverDocumentResponseSchema,
  driverDocumentsResponseSchema,
  driverListResponseSchema,
  driverLocationResponseSchema,
  historyResponseSchema,
  issuedDeviceTokenResponseSchema,
  ratingsResponseSchema,
  reviewDocumentBodySchema,
} from '@bmet/shared/schemas/driver';
import type { documentViewsResponseSchema } from '@bmet/shared/schemas/document-views';
import type { driverChecksResponseSchema } from '@bmet/shared/schemas/driver-check';
import type { vehicleListResponseSchema } from '@bmet/shared/schemas/vehicle';
import type { walletResponseSchema } from '@bmet/shared/schemas/wallet';
import type { DRIVER_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { m } from '@bmet/shared/paraglide/messages';
import { ApiError, apiRequest, authorizedFetch } from '../../lib/api-client';
import { cursorListOptions, useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

/** The spec's list path for each role; each answers only the drivers that caller may see. */
const LIST_PATH: Record<Role, string> = {
  admin: '/drivers',
  city_dealer: '/city_dealer',
  franchise: '/franchise',
};

export const driverKeys = {
  all: ['drivers'] as const,
  list: (role: Role, view: DriverListView) => ['drivers', 'list', role, view] as const,
  detail: (id: string) => ['drivers', 'detail', id] as const,
  location: (id: string) => ['drivers', 'location', id] as const,
  documents: (id: string) => ['drivers', 'documents', id] as const,
  history: (id: string) => ['drivers', 'history', id] as const,
  ratings: (id: string) => ['drivers', 'ratings', id] as const,
  devices: (id: string) => ['drivers', 'devices', id] as const,
  checks: (id: string) => ['drivers', 'checks', id] as const,
  wallet: (id: string) => ['drivers', 'wallet', id] as const,
  /** Under the vehicles' keys: a change to any vehicle refreshes it. */
  vehicle: (id: string) => ['vehicles', 'driver', id] as const,
};

const query = (params: Record<string, string | number | boolean | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The driver list's compliance filter: only the drivers in order, or only those who are not. */
export type DriverCompliance = 'compliant' | 'not_compliant';
export type DriverSort = (typeof DRIVER_SORTS)[number];

/** What the driver list shows: its search, filters and sort (none: in name order). */
export type DriverListView = {
  q: string;
  deleted?: boolean;
  compliance?: DriverCompliance;
  /** Only the drivers due remedial training this quarter. */
  remedial?: 'due';
  sort?: DriverSort;
  order?: SortOrder;
};

export function useDriverList(role: Role, view: DriverListView) {
  return useCursorList(
    driverKeys.list(role, view),
    (cursor, signal) =>
      apiRequest<typeof driverListResponseSchema>(
        'GET',
        `${LIST_PATH[role]}${query({ ...view, deleted: view.deleted || undefined, limit: 50, cursor })}`,
        { signal },
      ),
    { keepShown: true },
  );
}

export function useDeleteDriver() {
  return useInvalidatingMutation(driverKeys.all, (id: string) =>
    apiRequest('DELETE', `/drivers/driver/${id}`),
  );
}

export function useRestoreDriver() {
  return useInvalidatingMutation(driverKeys.all, (id: string) =>
    apiRequest('POST', `/drivers/driver/${id}/restore`),
  );
}

export function useDriver(id: string) {
  return useQuery({
    queryKey: driverKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof driverDetailResponseSchema>('GET', `/drivers/driver/${id}`, { signal }).then(
        (r) => r.data,
      ),
  });
}

/** The spec's polled location; `enabled` turns the 5-second polling on when the push channel is down. */
export function usePolledLocation(id: string, enabled: boolean, intervalMs: number) {
  return useQuery({
    queryKey: driverKeys.location(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof driverLocationResponseSchema>('GET', `/drivers/location/${id}`, { signal }).then(
        (r) => r.data,
      ),
    enabled,
    refetchInterval: enabled ? intervalMs : false,
    refetchIntervalInBackground: false,
  });
}

/**
 * The sections of a driver's file below its first screen are fetched ahead while the browser is
 * idle (driver-dashboard-screen.tsx) and drawn when they come near the screen. Their answers count
 * as fresh for 30 s, so that a section drawn within that time asks for nothing again, and are kept
 * for 30 minutes unwatched (React Query's default is 5), so that a file left open that long still
 * prints whole from the browser's menu. A change made here refreshes them at once. The documents
 * are not among them: a vehicle given to the driver elsewhere changes them, and they are read again
 * whenever drawn.
 */
export const SECTION_KEPT_MS = 30 * 60_000;
const SECTION_CACHE = { staleTime: 30_000, gcTime: SECTION_KEPT_MS };

/** A driver's ten documents, or with `of: 'vehicle'` those of the vehicle they drive now. */
export const documentsQuery = (id: string, of: 'driver' | 'vehicle' = 'driver') =>
  queryOptions({
    queryKey: [...driverKeys.documents(id), of],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverDocumentsResponseSchema>(
        'GET',
        `/drivers/driver/${id}/documents${of === 'vehicle' ? '?of=vehicle' : ''}`,
        { signal },
      ).then((r) => r.data),
  });

export function useDocuments(id: string, of: 'driver' | 'vehicle' = 'driver') {
  return useQuery(documentsQuery(id, of));
}

/** A document image as an object URL: images are served only with the bearer token, never publicly. */
export function useDocumentImage(id: string, key: DocumentKey, version: string | null) {
  const result = useQuery({
    // Outside the drivers' keys: a review, an upload or an assignment refreshes those, and must
    // not fetch every image again (each fetch is a recorded view); a new image is a new version.
    queryKey: ['document-image', id, key, version],
    queryFn: async ({ signal }) => {
      const response = await authorizedFetch(`/drivers/driver/${id}/documents/${key}/image`, { signal });
      if (!response.ok)
        throw new ApiError(response.status, { error: m.driversImageNotLoaded(), code: 'NOT_FOUND' });
      return URL.createObjectURL(await response.blob());
    },
    enabled: version !== null,
    staleTime: Infinity,
    gcTime: 60_000,
  });
  return result;
}

export function useUploadDocument(id: string) {
  return useInvalidatingMutation(
    driverKeys.documents(id),
    async ({ key, file }: { key: DocumentKey; file: File }) => {
      const response = await authorizedFetch(`/drivers/driver/${id}/documents/${key}/image`, {
        method: 'PUT',
        headers: { 'content-type': file.type || 'application/octet-stream' },
        body: file,
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw ApiError.fromBody(response.status, body);
      return (body as z.output<typeof driverDocumentResponseSchema>).data;
    },
  );
}

export type ReviewDecision = z.input<typeof reviewDocumentBodySchema>;

export function useReviewDocument(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, decision }: { key: DocumentKey; decision: ReviewDecision }) =>
      apiRequest<typeof driverDocumentResponseSchema>('PATCH', `/drivers/driver/${id}/documents/${key}`, {
        body: decision,
      }).then((r) => r.data),
    // A review can change the driver's compliance, on its dashboard, in the lists and counts.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: driverKeys.documents(id) }),
        client.invalidateQueries({ queryKey: driverKeys.detail(id) }),
        client.invalidateQueries({ queryKey: ['compliance'] }),
        // A vehicle's page shows its documents and its driver's.
        client.invalidateQueries({ queryKey: ['vehicles'] }),
      ]),
  });
}

/** A section's list, ten entries a page, kept as the sections' answers are. */
const tenAPage = <Page extends { nextCursor: string | null }>(
  queryKey: readonly unknown[],
  path: string,
  fetchPage: (path: string, signal: AbortSignal) => Promise<Page>,
) => ({
  ...cursorListOptions(queryKey, (cursor, signal) =>
    fetchPage(`${path}${query({ limit: 10, cursor })}`, signal),
  ),
  ...SECTION_CACHE,
});

export const historyQuery = (id: string) =>
  tenAPage(driverKeys.history(id), `/drivers/driver/${id}/history`, (path, signal) =>
    apiRequest<typeof historyResponseSchema>('GET', path, { signal }),
  );

export const ratingsQuery = (id: string) =>
  tenAPage(driverKeys.ratings(id), `/drivers/driver/${id}/ratings`, (path, signal) =>
    apiRequest<typeof ratingsResponseSchema>('GET', path, { signal }),
  );

/** The driver's wallet as the driver app kept it: its balance and entries, newest first. */
export const walletQuery = (id: string) =>
  tenAPage(driverKeys.wallet(id), `/drivers/driver/${id}/wallet`, (path, signal) =>
    apiRequest<typeof walletResponseSchema>('GET', path, { signal }),
  );

/** The driver's checks beside the documents, each with its status today. */
export const checksQuery = (id: string) =>
  queryOptions({
    queryKey: driverKeys.checks(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof driverChecksResponseSchema>('GET', `/drivers/driver/${id}/checks`, { signal }).then(
        (r) => r.data,
      ),
    ...SECTION_CACHE,
  });

/** The vehicle the driver drives now, or null. */
export const vehicleQuery = (id: string) =>
  queryOptions({
    queryKey: driverKeys.vehicle(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof vehicleListResponseSchema>('GET', `/vehicles?driverId=${id}&limit=1`, {
        signal,
      }).then((r) => Object.values(r.data)[0] ?? null),
    ...SECTION_CACHE,
  });

export const devicesQuery = (id: string) =>
  queryOptions({
    queryKey: driverKeys.devices(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof deviceTokensResponseSchema>('GET', `/drivers/driver/${id}/device-tokens`, {
        signal,
      }).then((r) => r.data),
    ...SECTION_CACHE,
  });

export function useHistory(id: string) {
  return useInfiniteQuery(historyQuery(id));
}

export function useRatings(id: string) {
  return useInfiniteQuery(ratingsQuery(id));
}

export function useDeviceTokens(id: string) {
  return useQuery(devicesQuery(id));
}

export function useIssueDeviceToken(id: string) {
  return useInvalidatingMutation(driverKeys.devices(id), (label: string) =>
    apiRequest<typeof issuedDeviceTokenResponseSchema>('POST', `/drivers/driver/${id}/device-tokens`, {
      body: { label },
    }).then((r) => r.data),
  );
}

export function useRevokeDeviceToken(id: string) {
  return useInvalidatingMutation(driverKeys.devices(id), (tokenId: string) =>
    apiRequest('DELETE', `/drivers/driver/${id}/device-tokens/${tokenId}`),
  );
}

export function useAssignDriver(id: string) {
  return useInvalidatingMutation(
    driverKeys.all,
    (body: { franchiseId: string | null; state: State | null }) =>
      apiRequest<typeof driverDetailResponseSchema>('PATCH', `/drivers/driver/${id}/assignment`, {
        body,
      }).then((r) => r.data),
  );
}

/** Who was served a document's image and when, newest first, paged (read fresh at each opening). */
export function useDocumentViews(id: string, key: DocumentKey) {
  return useCursorList([...driverKeys.documents(id), 'views', key], (cursor, signal) =>
    apiRequest<typeof documentViewsResponseSchema>(
      'GET',
      `/drivers/driver/${id}/documents/${key}/views${query({ limit: 20, cursor })}`,
      { signal },
    ),
  );
}
