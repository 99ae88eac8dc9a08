import type { DocumentKey } from './constants';

/** Documents that stop being valid on a date, entered when they are reviewed. */
export const EXPIRING_DOCUMENTS = [
  'driverLicence',
  'rcCertificate',
  'pollutionCertificate',
  'fitnessCertificate',
  'vehiclePermit',
  'vehicleInsurance',
] as const satisfies readonly DocumentKey[];

/**
 * Documents a driver may not drive without: the identity (Aadhaar) and every document that
 * expires. A driver is compliant when each of these is approved and none has expired.
 */
export const MANDATORY_DOCUMENTS = [
  'aadharCard',
  ...EXPIRING_DOCUMENTS,
] as const satisfies readonly DocumentKey[];

/** Identity documents: their images are served with a watermark naming the viewer and the time. */
export const WATERMARKED_DOCUMENTS = ['aadharCard', 'panCard'] as const satisfies readonly DocumentKey[];

/** Days before an expiry at which franchises and city dealers are reminded, largest first. */
export const EXPIRY_REMINDER_DAYS = [30, 7, 1] as const;

/** The most documents one batch approval takes (POST /api/drivers/documents/approvals). */
export const DOCUMENT_APPROVALS_MAX = 100;

/** Whether a document kind carries an expiry date. */
export const documentExpires = (key: DocumentKey) =>
  (EXPIRING_DOCUMENTS as readonly DocumentKey[]).includes(key);

/**
 * The mandatory documents a driver's vehicle does not need: an electric vehicle no pollution
 * certificate, nor a permit where its state exempts electric vehicles (a per-state figure).
 */
export function exemptDocuments(
  fuel: string | null | undefined,
  electricPermitExempt: boolean,
): DocumentKey[] {
  if (fuel !== 'electric') return [];
  return electricPermitExempt ? ['pollutionCertificate', 'vehiclePermit'] : ['pollutionCertificate'];
}
