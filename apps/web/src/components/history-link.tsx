import { Anchor } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { AuditRecordType } from '@bmet/shared/schemas/audit';
import { useSession } from '../lib/session-context';

/**
 * A link to a record's history in the audit trail, for those who may read it (admins, city
 * dealers). Without a kind of record, every change whose record is this id (an account's
 * profile, password and account changes alike).
 */
export function HistoryLink({
  recordType,
  recordId,
  name,
}: {
  recordType?: AuditRecordType;
  recordId: string;
  name: string;
}) {
  const { session } = useSession();
  if (!can(session, ['audit', 'list'])) return null;
  const params = new URLSearchParams({ recordId, recordName: name });
  if (recordType) params.set('recordType', recordType);
  return (
    <Anchor
      component={Link}
      to={`/audit?${params.toString()}`}
      size="sm"
      style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}
    >
      <IconHistory size={16} aria-hidden />
      {m.auditViewHistory()}
    </Anchor>
  );
}
