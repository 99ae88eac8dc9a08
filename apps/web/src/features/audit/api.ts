import type { AuditAction, AuditRecordType, auditListResponseSchema } from '@bmet/shared/schemas/audit';
import type { AUDIT_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

/** The trail's filters and sort (none: newest first). */
export type AuditFilters = {
  actor?: string;
  recordType?: AuditRecordType;
  recordId?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
  sort?: (typeof AUDIT_SORTS)[number];
  order?: SortOrder;
};

/** The query string of a filtered audit trail, as `/api/audit` takes it. */
export function auditQuery(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return params;
}

export function useAuditTrail(filters: AuditFilters) {
  return useCursorList(
    ['audit', filters],
    (cursor, signal) => {
      const params = auditQuery(filters);
      params.set('limit', '50');
      if (cursor) params.set('cursor', cursor);
      return apiRequest<typeof auditListResponseSchema>('GET', `/audit?${params.toString()}`, { signal });
    },
    { keepShown: true },
  );
}
