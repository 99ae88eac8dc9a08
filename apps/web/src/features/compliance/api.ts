import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DocumentKey } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type {
  ComplianceEntry,
  complianceListResponseSchema,
  complianceSummaryResponseSchema,
} from '@bmet/shared/schemas/compliance';
import type { approveDocumentsResponseSchema } from '@bmet/shared/schemas/document-approvals';
import type {
  driverDetailResponseSchema,
  driverDocumentResponseSchema,
  driverDocumentsResponseSchema,
  reviewDocumentBodySchema,
} from '@bmet/shared/schemas/driver';
import type { COMPLIANCE_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { ApiError, apiRequest, authorizedFetch } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

/** The views of the compliance screen, as the address names them. */
export const COMPLIANCE_VIEWS = ['expired', '1', '7', '30', 'review'] as const;
export type ComplianceView = (typeof COMPLIANCE_VIEWS)[number];

/** The query of a view: `within` days, or the documents awaiting review. */
function viewQuery(view: ComplianceView): URLSearchParams {
  if (view === 'review') return new URLSearchParams({ status: 'submitted' });
  return new URLSearchParams({ within: view === 'expired' ? '0' : view });
}

export type ComplianceSort = (typeof COMPLIANCE_SORTS)[number];

/** A view's sort; none for its own order (expiry or upload, oldest first). */
export type ComplianceListSort = { sort?: ComplianceSort; order?: SortOrder };

export function useComplianceList(view: ComplianceView, sort: ComplianceListSort) {
  return useCursorList(
    ['compliance', 'list', view, sort],
    (cursor, signal) => {
      const params = viewQuery(view);
      if (sort.sort) params.set('sort', sort.sort);
      if (sort.order) params.set('order', sort.order);
      params.set('limit', '50');
      if (cursor) params.set('cursor', cursor);
      return apiRequest<typeof complianceListResponseSchema>('GET', `/compliance?${params.toString()}`, {
        signal,
      });
    },
    { keepShown: true },
  );
}

export function useComplianceSummary() {
  return useQuery({
    queryKey: ['compliance', 'summary'],
    queryFn: ({ signal }) =>
      apiRequest<typeof complianceSummaryResponseSchema>('GET', '/compliance/summary', { signal }).then(
        (response) => response.data,
      ),
  });
}

/** One document of a driver: what the review panel shows and a batch approves. */
export type DocumentRef = { driverId: string; key: DocumentKey };

/** A document's identity as one string (a selection's member, a React key). */
export const refId = (ref: DocumentRef) => `${ref.driverId}/${ref.key}`;

/** A listed document as a reference (the review view lists documents only, no checks). */
export const refOf = (entry: ComplianceEntry): DocumentRef => ({
  driverId: entry.driverId,
  key: entry.document as DocumentKey,
});

/** A listed document's identity, as refId names it. */
export const entryId = (entry: ComplianceEntry) => refId(refOf(entry));

/** The one stored document outside the spec's ten: read among the vehicle's (decision 030). */
const VEHICLE_ONLY: DocumentKey = 'vehicleInsurance';

/**
 * A driver's documents as the driver dashboard reads them (the same query, so either screen's
 * answer serves the other): the spec's ten, or those of the vehicle for the vehicle's insurance.
 */
export function useDriverDocuments(ref: DocumentRef) {
  const of = ref.key === VEHICLE_ONLY ? 'vehicle' : 'driver';
  return useQuery({
    queryKey: ['drivers', 'documents', ref.driverId, of],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverDocumentsResponseSchema>(
        'GET',
        `/drivers/driver/${ref.driverId}/documents${of === 'vehicle' ? '?of=vehicle' : ''}`,
        { signal },
      ).then((response) => response.data),
    select: (documents) => documents.find((document) => document.key === ref.key) ?? null,
  });
}

/** A driver's name, when the panel opens on a document the loaded list does not hold (a link). */
export function useDriverName(driverId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['drivers', 'detail', driverId],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverDetailResponseSchema>('GET', `/drivers/driver/${driverId}`, { signal }).then(
        (response) => response.data,
      ),
    select: (driver) => driver.name,
    enabled,
  });
}

/**
 * A document image as an object URL, from the endpoint the driver dashboard reads (images are
 * served only with the bearer token). Its key is the dashboard's: a review must not fetch the
 * image again, as each fetch is a recorded view; a new image is a new version.
 */
export function useDocumentImage(ref: DocumentRef, version: string | null) {
  return useQuery({
    queryKey: ['document-image', ref.driverId, ref.key, version],
    queryFn: async ({ signal }) => {
      const response = await authorizedFetch(`/drivers/driver/${ref.driverId}/documents/${ref.key}/image`, {
        signal,
      });
      if (!response.ok)
        throw new ApiError(response.status, { error: m.complianceImageUnavailable(), code: 'NOT_FOUND' });
      return URL.createObjectURL(await response.blob());
    },
    enabled: version !== null,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

export type ReviewDecision = z.input<typeof reviewDocumentBodySchema>;

/** What a review changes on other screens: the compliance views and counts, the driver, its vehicle. */
function refreshAfterReview(client: QueryClient, driverIds: string[] | null) {
  // Not awaited: the queue moves on at once, from the list as it was when the decision was made.
  void client.invalidateQueries({ queryKey: ['compliance'] });
  void client.invalidateQueries({ queryKey: ['vehicles'] });
  if (driverIds === null) void client.invalidateQueries({ queryKey: ['drivers'] });
  else
    for (const id of driverIds) {
      void client.invalidateQueries({ queryKey: ['drivers', 'documents', id] });
      void client.invalidateQueries({ queryKey: ['drivers', 'detail', id] });
    }
}

/** A review decision on one document, through the driver dashboard's own endpoint. */
export function useReviewDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, decision }: { ref: DocumentRef; decision: ReviewDecision }) =>
      apiRequest<typeof driverDocumentResponseSchema>(
        'PATCH',
        `/drivers/driver/${ref.driverId}/documents/${ref.key}`,
        { body: decision },
      ).then((response) => response.data),
    onSuccess: (_document, { ref }) => refreshAfterReview(client, [ref.driverId]),
  });
}

type Approvals = z.output<typeof approveDocumentsResponseSchema>['data'];

/**
 * Approves documents that need no expiry date, `batchSize` at a time (what the API takes at once):
 * the documents approved, and those that were not with the reason of each.
 */
export function useApproveDocuments(batchSize: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (refs: DocumentRef[]): Promise<Approvals> => {
      const result: Approvals = { approved: [], failed: [] };
      for (let start = 0; start < refs.length; start += batchSize) {
        const documents = refs.slice(start, start + batchSize);
        const { data } = await apiRequest<typeof approveDocumentsResponseSchema>(
          'POST',
          '/drivers/documents/approvals',
          { body: { documents } },
        );
        result.approved.push(...data.approved);
        result.failed.push(...data.failed);
      }
      return result;
    },
    onSettled: () => refreshAfterReview(client, null),
  });
}
