import pLimit from 'p-limit';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { DOCUMENT_IMAGE_TYPES } from '@bmet/shared/constants';

export type DocumentImageType = (typeof DOCUMENT_IMAGE_TYPES)[number];

/** Longest side of a stored scan: sharp enough to read a licence, small enough to load quickly. */
export const MAX_IMAGE_SIDE = 2400;
/** Decoding a small file can still need a lot of memory (a "decompression bomb"): refuse early. */
export const MAX_IMAGE_MEGAPIXELS = 50;
/**
 * What an image may take once decoded: a 50-megapixel phone photo (8 bits, three channels) is
 * 150 MB; a 7000 x 7000 PNG of 16 bits and four channels (392 MB) took 7 s of a core and 170 MB
 * more each, from a 581 KB file.
 */
export const MAX_DECODED_MEGABYTES = 160;
/** A decode or encode that runs longer than this is stopped (libvips' own timeout). */
const PROCESSING_SECONDS = 20;
/** Images processed at once, and waiting: the rest are refused with a 429 rather than queued. */
const IMAGES_AT_ONCE = 1;
const IMAGES_WAITING = 3;

// libvips works on a thread of its own per image (not the event loop's): one image at a time on
// one thread leaves the other core to every other request, and no operation cache keeps decoded
// images in memory after their request.
sharp.concurrency(1);
sharp.cache(false);
const imageWork = pLimit(IMAGES_AT_ONCE);

/** Bytes per channel of libvips' band formats (metadata.depth). */
const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

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
  if (imageWork.activeCount + imageWork.pendingCount >= IMAGES_AT_ONCE + IMAGES_WAITING) {
    throw new AppError('RATE_LIMITED', m.imageProcessingBusy(), { headers: { 'retry-after': '5' } });
  }
  return imageWork(() => processImage(input, declared));
}

async function processImage(
  input: Buffer,
  declared: DocumentImageType,
): Promise<{ body: Buffer; contentType: DocumentImageType; extension: 'jpg' | 'png' }> {
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
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > MAX_IMAGE_MEGAPIXELS * 1_000_000) {
    throw new AppError('VALIDATION', m.imageTooManyPixels({ megapixels: MAX_IMAGE_MEGAPIXELS }));
  }
  // What decoding costs grows with the samples' size too (16-bit PNGs), not with the pixels alone.
  const decoded = pixels * (metadata.channels ?? 4) * (BYTES_PER_SAMPLE[metadata.depth ?? ''] ?? 4);
  if (decoded > MAX_DECODED_MEGABYTES * 1_000_000) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      m.imageTooHeavy({ megabytes: Math.ceil(decoded / 1_000_000), limit: MAX_DECODED_MEGABYTES }),
    );
  }

  const pipeline = sharp(input, options)
    .timeout({ seconds: PROCESSING_SECONDS })
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
