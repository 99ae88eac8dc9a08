import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { MAX_DECODED_MEGABYTES, prepareDocumentImage } from './document-image';

/**
 * What one upload may cost the server is bounded before any pixel is decoded, and image work runs
 * a few at a time: beyond, a clear refusal rather than a server that stops answering.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A PNG that says it is 7000 x 7000 pixels of 16-bit RGBA: 392 MB once decoded, a few bytes here. */
function heavyPngHeader(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(7000, 0);
  header.writeUInt32BE(7000, 4);
  header[8] = 16; // bits per sample
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    // One row of the 7000: the file ends early, as a crafted one may; its header is what counts.
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + 7000 * 8))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('prepareDocumentImage', () => {
  it('refuses with 413 an image whose decoded size is past the limit, before decoding it', async () => {
    const refusal = await prepareDocumentImage(heavyPngHeader(), 'image/png').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: m.imageTooHeavy({ megabytes: 392, limit: MAX_DECODED_MEGABYTES }),
    });
  });

  it('accepts a 16-bit image of a reasonable size, and stores it as 8 bits', async () => {
    const image = await sharp({
      create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(image).metadata()).depth).toBe('ushort');
    const prepared = await prepareDocumentImage(image, 'image/png');
    expect((await sharp(prepared.body).metadata()).depth).toBe('uchar');
  });

  it('works on a few images at a time and refuses the next with a 429 to try again', async () => {
    const image = await sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: 10, g: 20, b: 30 } },
    })
      .jpeg()
      .toBuffer();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => prepareDocumentImage(image, 'image/jpeg')),
    );
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    const refusal = (results[4] as PromiseRejectedResult).reason as AppError;
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', message: m.imageProcessingBusy() });
    // Once the work is done there is room again.
    await expect(prepareDocumentImage(image, 'image/jpeg')).resolves.toMatchObject({
      contentType: 'image/jpeg',
    });
  });
});
