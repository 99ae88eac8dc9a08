import { useQuery } from '@tanstack/react-query';
import type {
  complianceListResponseSchema,
  complianceSummaryResponseSchema,
} from '@bmet/shared/schemas/compliance';
import type { COMPLIANCE_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { apiRequest } from '../../lib/api-client';
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
