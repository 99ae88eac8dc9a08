import sharp, { type Metadata } from 'sharp';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { DOCUMENT_IMAGE_TYPES } from '@bmet/shared/constants';

export type DocumentImageType = (typeof DOCUMENT_IMAGE_TYPES)[number];

/** Longest side of a stored scan: sharp enough to read a licence, small enough to load quickly. */
export const MAX_IMAGE_SIDE = 2400;
/** Decoding a small file can still need a lot of memory (a "decompression bomb"): refuse early. */
export const MAX_IMAGE_MEGAPIXELS = 50;

const FORMATS = {
  'image/jpeg': { format: 'jpeg', name: 'JPEG', extension: 'jpg' },
  'image/png': { format: 'png', name: 'PNG', extension: 'png' },
} as const satisfies Record<DocumentImageType, { format: string; name: string; extension: string }>;

export function isDocumentImageType(value: string): value is DocumentImageType {
  return (DOCUMENT_IMAGE_TYPES as readonly string[]).includes(value);
}

const unreadable = () => new AppError('VALIDATION', m.imageUnreadable());

/**
 * Checks an uploaded scan by its content, not its name: it must decode completely as the declared
 * format. It is then encoded again in that format, upright, at most MAX_IMAGE_SIDE pixels on its
 * longer side, and without metadata (EXIF may carry the phone's GPS position and the time).
 */
export async function prepareDocumentImage(
  input: Buffer,
  declared: DocumentImageType,
): Promise<{ body: Buffer; contentType: DocumentImageType; extension: 'jpg' | 'png' }> {
  if (input.length === 0) throw new AppError('VALIDATION', m.imageEmpty());
  const options = {
    failOn: 'error',
    limitInputPixels: MAX_IMAGE_MEGAPIXELS * 1_000_000,
  } as const;

  let metadata: Metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch {
    throw unreadable();
  }
  const detected = Object.values(FORMATS).find((entry) => entry.format === metadata.format);
  if (!detected) throw unreadable();
  const expected = FORMATS[declared];
  if (detected !== expected) {
    throw new AppError('VALIDATION', m.imageTypeMismatch({ detected: detected.name, declared }));
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_IMAGE_MEGAPIXELS * 1_000_000) {
    throw new AppError('VALIDATION', m.imageTooManyPixels({ megapixels: MAX_IMAGE_MEGAPIXELS }));
  }

  const pipeline = sharp(input, options)
    .autoOrient()
    .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
  let body: Buffer;
  try {
    // sharp writes no metadata unless asked to (keepMetadata/withMetadata), so EXIF is dropped.
    body = await (
      expected.format === 'jpeg'
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : pipeline.png({ compressionLevel: 9 })
    ).toBuffer();
  } catch {
    // A header that reads well over data that does not (truncated or damaged) fails here.
    throw unreadable();
  }
  return { body, contentType: declared, extension: expected.extension };
}
