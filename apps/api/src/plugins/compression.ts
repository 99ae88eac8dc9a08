import { constants as zlibConstants } from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * How API answers are compressed. JSON answers (a list page is about 35 KB) are compressed in one
 * call each, at brotli's quality 1: a trip page takes 0.07 ms to compress and comes to 8.0 KB,
 * against 0.26 ms and 7.4 KB at quality 4, the time being the server's on every request and the
 * 600 bytes about 3 ms over a slow mobile network. Trip pages at 50 connections: 409-422 requests
 * a second at quality 4, 482-514 at quality 1. Larger answers still stream (the default cut is 8 KB).
 * Brotli's window is 1 MB instead of 4 MB: each compressing stream holds 6 MB instead of 12 MB.
 */
export const API_COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  syncThreshold: 256 * 1024,
  brotliOptions: {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_LGWIN]: 20 },
  },
  zlibOptions: { level: 3 },
} satisfies FastifyCompressOptions;

/**
 * Files (CSV exports) are downloaded once and can be tens of megabytes: quality 4 makes a trips
 * export 10% smaller than quality 1 (5.5 against 6.1 MB for 100,000 trips), seconds over a mobile
 * network, for compression that still runs faster than the database reads the rows.
 */
export const FILE_COMPRESSION = {
  ...API_COMPRESSION,
  brotliOptions: {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 20 },
  },
  zlibOptions: { level: 6 },
} satisfies FastifyCompressOptions;
