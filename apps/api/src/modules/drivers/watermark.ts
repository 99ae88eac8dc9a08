import sharp from 'sharp';
import { MAX_IMAGE_MEGAPIXELS } from './document-image';

const indianMoment = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

/** A moment as staff read it, in India Standard Time: 24/11/2026, 9:05 pm IST. */
export function formatIndianMoment(at: Date): string {
  return `${indianMoment.format(at).replace(/\s+/g, ' ')} IST`;
}

/** Text placed inside SVG markup: a name is whatever an admin typed, never markup of its own. */
function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export type WatermarkViewer = { email: string; displayName: string | null };

/**
 * The lines of the watermark: who (name and email: a name alone may be shared by two people) and
 * when. The same in every language (no words, only the name, the email and the time): whoever
 * traces a leaked screenshot reads it, whatever the language its viewer had chosen.
 */
export function watermarkLines(viewer: WatermarkViewer, at: Date): string[] {
  const name = viewer.displayName?.trim();
  return name ? [name, viewer.email, formatIndianMoment(at)] : [viewer.email, formatIndianMoment(at)];
}

const ANGLE_DEGREES = 30;

/**
 * One tile of the watermark, which sharp repeats over the whole image: blocks of the lines turned
 * 30 degrees, one per tile, the tile as wide and as high as one step along the text (a block and a
 * gap of four letters), so that the blocks line up along the text from tile to tile. A block is
 * centred on the tile's corner and reaches into the neighbouring tiles: each tile draws the parts
 * of the blocks around it. Dark letters at low opacity with a light outline, readable on a light
 * or a dark scan while the document stays legible underneath. A small tile repeated costs a
 * fraction of an SVG as large as the image (librsvg fills a rotated pattern slowly: 0.3 s on a
 * 2400 px scan).
 */
export function watermarkTile(imageWidth: number, imageHeight: number, lines: string[]) {
  const size = Math.max(12, Math.min(36, Math.round(Math.min(imageWidth, imageHeight) / 24)));
  const lineHeight = Math.round(size * 1.25);
  // Bold sans-serif letters are about 0.62 of their size wide.
  const step = Math.max(...lines.map((line) => line.length)) * size * 0.62 + size * 4;
  const radians = (ANGLE_DEGREES * Math.PI) / 180;
  // sharp repeats a tile no larger than the image: a tiny scan gets a cut one.
  const width = Math.min(Math.round(step * Math.cos(radians)), imageWidth);
  const height = Math.min(Math.round(step * Math.sin(radians)), imageHeight);
  const block = (cx: number, cy: number) =>
    `<text transform="translate(${cx} ${cy}) rotate(${-ANGLE_DEGREES})" text-anchor="middle">${lines
      .map(
        (line, index) =>
          `<tspan x="0" y="${Math.round((index - (lines.length - 1) / 2) * lineHeight + size * 0.35)}">${escapeXml(line)}</tspan>`,
      )
      .join('')}</text>`;
  const blocks: string[] = [];
  for (let i = -1; i <= 2; i++) for (let j = -1; j <= 2; j++) blocks.push(block(i * width, j * height));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<g font-family="DejaVu Sans, Noto Sans, Liberation Sans, Arial, sans-serif" font-size="${size}" font-weight="bold" fill="#111" fill-opacity="0.28" stroke="#fff" stroke-opacity="0.35" stroke-width="${Math.max(1, size / 14).toFixed(1)}" paint-order="stroke">
${blocks.join('')}
</g></svg>`;
  return { svg, width, height };
}

export type WatermarkedImage = { body: Buffer; contentType: 'image/jpeg' | 'image/png' };

/**
 * The image with the viewer's watermark drawn over it, in the format it was stored in (JPEG or
 * PNG; anything else is refused, as the upload refuses it). Stored scans are already upright and
 * without metadata, so none is read or written.
 */
export async function watermarkImage(
  body: Buffer,
  viewer: WatermarkViewer,
  at: Date,
): Promise<WatermarkedImage> {
  const options = { failOn: 'error', limitInputPixels: MAX_IMAGE_MEGAPIXELS * 1_000_000 } as const;
  const { format, width, height } = await sharp(body, options).metadata();
  if ((format !== 'jpeg' && format !== 'png') || !width || !height) {
    throw new Error(`A document image to watermark is ${format ?? 'unreadable'}, not JPEG or PNG`);
  }
  const tile = watermarkTile(width, height, watermarkLines(viewer, at));
  const pipeline = sharp(body, options).composite([{ input: Buffer.from(tile.svg), tile: true }]);
  return format === 'jpeg'
    ? { body: await pipeline.jpeg({ quality: 85 }).toBuffer(), contentType: 'image/jpeg' }
    : // Level 6 rather than the upload's 9: this runs on every view, and the size barely differs.
      { body: await pipeline.png({ compressionLevel: 6 }).toBuffer(), contentType: 'image/png' };
}
