import jpeg from 'jpeg-js';
import type { DocumentKey } from '@bmet/shared/constants';
import { STORED_DOCUMENT_KEYS } from '@bmet/shared/constants';

const WIDTH = 480;
const HEIGHT = 300;

/**
 * Draws a plausible scanned ID card for a document type: a coloured header band, a photo box and
 * lines of "text". Each type has its own colour so that they are told apart at a glance.
 */
export function drawDocumentJpeg(key: DocumentKey, variant = 0): Uint8Array {
  const index = STORED_DOCUMENT_KEYS.indexOf(key);
  const hue = (index * 36 + variant * 7) % 360;
  const [hr, hg, hb] = hslToRgb(hue, 0.55, 0.42);
  const data = Buffer.alloc(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      let r = 246,
        g = 244,
        b = 238; // paper
      const border = x < 6 || y < 6 || x >= WIDTH - 6 || y >= HEIGHT - 6;
      const header = y >= 6 && y < 62;
      const photo = x >= 24 && x < 140 && y >= 84 && y < 230;
      const line =
        x >= 164 && y >= 92 && y < 230 && (y - 92) % 28 < 10 && x < 440 - ((y * 37 + index * 11) % 120);
      const stripe = y >= 250 && y < 270 && x >= 24 && x < 456 && (x >> 3) % 3 !== 0;
      if (border || header) [r, g, b] = [hr, hg, hb];
      else if (photo) [r, g, b] = [190 - ((x + y) % 40), 196 - (y % 30), 205];
      else if (line) [r, g, b] = [70, 70, 78];
      else if (stripe) [r, g, b] = [150, 150, 150];
      const at = (y * WIDTH + x) * 4;
      data[at] = r;
      data[at + 1] = g;
      data[at + 2] = b;
      data[at + 3] = 255;
    }
  }
  return jpeg.encode({ data, width: WIDTH, height: HEIGHT }, 70).data;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}
