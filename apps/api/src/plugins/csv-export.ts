import { PassThrough, type Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LANGUAGES, type Language } from '@bmet/shared/constants';
import type { Permission } from '@bmet/shared/permissions';
import { inLanguage } from '../infra/language';
import { currentUser, type SessionUser, type TicketedRoute } from './authentication';
import { FILE_COMPRESSION } from './compression';
import { CSV_CONTENT } from './openapi';
import { csvCell, csvLine, istDate, UTF8_BOM, type CsvValue } from '../lib/csv';
import { errorResponses } from '../lib/error-responses';

/**
 * Lists exported to CSV, streamed: the rows are read in keyset batches by the list's own query
 * (scope, filters and search included) and written to the reply as they come, so that an export
 * of a million trips costs the server the memory of two batches, and a client that goes away
 * stops the walk. See docs/decisions/013-streamed-exports.md.
 */

/**
 * Rows read per query. Measured on a million trips: at 2,000 the rows of a batch (about 4 MB while
 * they are parsed and written) outlived the garbage collector's young generation and were promoted
 * to the old one at nearly every collection; at 500 they die young once the code is optimised, and
 * the rows per second were the same within the noise of the shared machine. Read at each export,
 * so that tests can walk many batches over a few rows.
 */
export const EXPORT_TUNING = { batchSize: 500 };

/** One column: its header in the request's language, and its value for a row. */
export type CsvColumn<Row> = { header: string; value: (row: Row) => CsvValue };

/** A batch as a list reads a page: the rows, and the cursor of the next batch (null on the last). */
export type ExportBatch<Row> = { rows: Row[]; nextCursor: string | null };

export type CsvExport<Query extends z.ZodObject, Row> = {
  /** The path within the /api prefix: '/trips/export.csv'. */
  url: string;
  /** The list's own permission. */
  access: Permission;
  tags: string[];
  summary: string;
  description: string;
  /** The list's query schema without its paging fields. */
  query: Query;
  /** What the file's name starts with: `trips` gives trips-2026-11-24.csv (the date in India). */
  fileName: string;
  /** Refusals beyond the permission that the list makes too (deleted drivers: admins only). */
  authorize?: (user: SessionUser, query: z.output<Query>) => void;
  /** The columns, with headers in the request's language; they may depend on the caller. */
  columns: (request: FastifyRequest, query: z.output<Query>) => CsvColumn<Row>[];
  /** A batch after a cursor (the first one without), read as the list reads a page. */
  readBatch: (
    request: FastifyRequest,
    query: z.output<Query>,
    cursor: string | undefined,
    limit: number,
  ) => Promise<ExportBatch<Row>>;
};

const errors = errorResponses(400, 401, 403);

const TICKET_DESCRIPTION =
  'Signed in with the bearer token, or with `ticket`: a single-use download ticket from ' +
  '`POST /api/auth/download-tickets` for this very path and query, valid 60 seconds, so that a browser can ' +
  'hand the download to its own download manager.';

/** Adds a list's CSV export: `GET <url>`, with the list's permission, query and scope. */
export function registerCsvExport<Query extends z.ZodObject, Row>(
  app: FastifyInstance,
  definition: CsvExport<Query, Row>,
): void {
  const running = new Set<PassThrough>();
  // A server shutting down ends the exports in progress (their downloads fail and can be started
  // again) instead of waiting for them until it is killed.
  app.addHook('preClose', (done) => {
    for (const out of running) out.destroy(new Error('The server is shutting down.'));
    done();
  });
  // The language of the file can be chosen in its address: a browser's download manager sends the
  // browser's Accept-Language, not the language the console is read in.
  const query = definition.query.extend({
    lang: z
      .enum(LANGUAGES)
      .optional()
      .describe("The language of the header row and labels (default: the request's Accept-Language)."),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    definition.url,
    {
      // A HEAD would walk the whole export only to throw it away.
      exposeHeadRoute: false,
      compress: FILE_COMPRESSION,
      config: {
        access: definition.access,
        downloadTicket: {
          access: definition.access,
          query,
          authorize: definition.authorize as TicketedRoute['authorize'],
        },
        openapi: { responses: { 200: CSV_CONTENT } },
      },
      schema: {
        tags: definition.tags,
        summary: definition.summary,
        description: `${definition.description} ${TICKET_DESCRIPTION}`,
        querystring: query.extend({
          ticket: z.string().max(100).optional().describe('A download ticket, instead of the bearer token.'),
        }),
        security: [{ bearer: [] }, { downloadTicket: [] }],
        response: {
          200: z.unknown().describe('The CSV file: UTF-8 with a byte-order mark, CRLF lines, a header row'),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const {
        ticket: _ticket,
        lang,
        ...rest
      } = request.query as z.output<Query> & {
        ticket?: string;
        lang?: Language;
      };
      const filters = rest as z.output<Query>;
      definition.authorize?.(currentUser(request), filters);
      // Headers and labels are read once, here, in the file's language.
      const columns = inLanguage(lang ?? request.language, () => definition.columns(request, filters));
      const read = (cursor: string | undefined) =>
        definition.readBatch(request, filters, cursor, EXPORT_TUNING.batchSize);
      // The first batch is read before anything is sent: a failure there still answers an error body.
      const first = await read(undefined);
      const out = new PassThrough({ highWaterMark: 1024 * 1024 });
      running.add(out);
      out.once('close', () => running.delete(out));
      void writeCsv(out, { columns, first, read, log: request.log });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${definition.fileName}-${istDate()}.csv"`)
        .header('cache-control', 'no-store')
        .send(out);
    },
  );
}

/**
 * The records of a batch. Written cell by cell, without an array per row: an export makes a
 * million rows, and what each row leaves behind is what the garbage collector has to clear.
 */
function csvRecords<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) text += (i === 0 ? '' : ',') + csvCell(columns[i]!.value(row));
    text += '\r\n';
  }
  return text;
}

/** Resolves when the stream can take more, or is gone. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

const ignore = () => {};

/**
 * Writes the header and every batch, reading the next batch while the last one is sent, and
 * waiting for the reply to drain before writing more: at most two batches are held at a time,
 * whatever the export's size and the client's speed. Stops as soon as the reply is gone (the
 * client went away, the server is closing); a failure after the start cuts the reply off, so
 * that the download fails rather than ending short as if it were complete.
 */
export async function writeCsv<Row>(
  out: PassThrough,
  {
    columns,
    first,
    read,
    log,
  }: {
    columns: CsvColumn<Row>[];
    first: ExportBatch<Row>;
    read: (cursor: string) => Promise<ExportBatch<Row>>;
    log: FastifyBaseLogger;
  },
): Promise<void> {
  try {
    out.write(UTF8_BOM + csvLine(columns.map((column) => column.header)));
    let batch = first;
    for (;;) {
      const next = batch.nextCursor === null ? null : read(batch.nextCursor);
      // Handled now, awaited below: a failure while the reply drains is not an unhandled rejection.
      next?.catch(ignore);
      const text = csvRecords(columns, batch.rows);
      if (!out.write(text)) await drained(out);
      if (out.destroyed || next === null) break;
      batch = await next;
      if (out.destroyed) break;
    }
    if (!out.destroyed) out.end();
  } catch (error) {
    log.error({ err: error }, 'an export failed after it had started');
    out.destroy(error as Error);
  }
}

/**
 * The labels of a fixed set of values, read once per export in the request's language (not once
 * per row); a value outside the set is left empty, as the lists answer null for it.
 */
export function labelsOf<T extends string>(
  values: readonly T[],
  label: (value: T) => string,
): (value: string | null | undefined) => string {
  const labels = new Map<string, string>(values.map((value) => [value, label(value)]));
  return (value) => (value ? (labels.get(value) ?? '') : '');
}
