import type { z } from 'zod';
import type { auditListQuerySchema, auditListResponseSchema } from '@bmet/shared/schemas/audit';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

/** The trail's filters and sort (none: newest first), as the contract checks them. */
export type AuditFilters = Omit<z.output<typeof auditListQuerySchema>, 'limit' | 'cursor'>;

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
