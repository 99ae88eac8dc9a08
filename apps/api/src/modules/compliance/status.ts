import { sql, type SQL } from 'drizzle-orm';
import { type DocumentKey } from '@bmet/shared/constants';
import { MANDATORY_DOCUMENTS } from '@bmet/shared/document-rules';
import type { Compliance, ComplianceProblem } from '@bmet/shared/schemas/driver';
import { anyOf } from '../../db/any-of';
import { driverDocuments, drivers } from '../../db/schema';
import type { DbExecutor } from '../../infra/audit';
import { indianToday } from '../../lib/ist-days';

const MANDATORY: readonly string[] = MANDATORY_DOCUMENTS;

/**
 * Whether each mandatory document of the driver in `drivers` is approved and unexpired, as a
 * condition: the driver list's compliance filter. An approved document without a recorded expiry
 * (approved before expiry dates were entered) counts as valid.
 */
function validMandatoryCount(today: string): SQL {
  return sql`(select count(*) from ${driverDocuments}
    where ${driverDocuments.driverId} = ${drivers.id}
      and ${anyOf(driverDocuments.key, MANDATORY, 'text')}
      and ${driverDocuments.status} = 'approved'
      and (${driverDocuments.expiresOn} is null or ${driverDocuments.expiresOn} >= ${today}::date))`;
}

export function complianceCondition(wanted: 'compliant' | 'not_compliant', today = indianToday()): SQL {
  return wanted === 'compliant'
    ? sql`${validMandatoryCount(today)} = ${MANDATORY.length}`
    : sql`${validMandatoryCount(today)} < ${MANDATORY.length}`;
}

/** What keeps one mandatory document from counting, or null when it is in order. */
function problemOf(
  row: { status: string; expiresOn: string | null } | undefined,
  today: string,
): ComplianceProblem['problem'] | null {
  if (!row || row.status === 'not_submitted') return 'missing';
  if (row.status === 'rejected') return 'rejected';
  if (row.status === 'submitted') return 'awaiting_review';
  if (row.expiresOn && row.expiresOn < today) return 'expired';
  return null;
}

/** Each driver's compliance, with the reasons when it is not: two round trips for a whole page. */
export async function complianceOf(db: DbExecutor, driverIds: string[]): Promise<Map<string, Compliance>> {
  const result = new Map<string, Compliance>();
  if (driverIds.length === 0) return result;
  const rows = await db
    .select({
      driverId: driverDocuments.driverId,
      key: driverDocuments.key,
      status: driverDocuments.status,
      expiresOn: driverDocuments.expiresOn,
    })
    .from(driverDocuments)
    .where(
      sql`${anyOf(driverDocuments.driverId, driverIds, 'uuid')} and ${anyOf(driverDocuments.key, MANDATORY, 'text')}`,
    );
  const byDriver = new Map<string, Map<string, (typeof rows)[number]>>();
  for (const row of rows) {
    const documents = byDriver.get(row.driverId) ?? new Map();
    documents.set(row.key, row);
    byDriver.set(row.driverId, documents);
  }
  const today = indianToday();
  for (const id of driverIds) {
    const documents = byDriver.get(id);
    const problems: ComplianceProblem[] = [];
    for (const document of MANDATORY_DOCUMENTS) {
      const problem = problemOf(documents?.get(document), today);
      if (problem) problems.push({ document: document as DocumentKey, problem });
    }
    result.set(id, { compliant: problems.length === 0, problems });
  }
  return result;
}
