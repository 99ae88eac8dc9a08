import { PassThrough, type Writable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { carriesKey } from '../../infra/backup-control';
import type { BackupManifest } from '../../infra/backup';

export type BackupRoutesOptions = {
  /** The key of the data folder's control file. */
  key: string;
  /** Writes a backup of the running server's database and images. */
  write: (out: Writable) => Promise<BackupManifest>;
};

/**
 * `GET /api/backup`, for `npm run backup` on the same machine while the server holds the embedded
 * database: the backup, streamed as it is written. Anyone without the control file's key finds no
 * such route (404, as for an unknown path), and the OpenAPI document does not list it.
 */
export const backupRoutes: FastifyPluginAsync<BackupRoutesOptions> = async (app, { key, write }) => {
  app.get(
    '/backup',
    // The route checks its own key: no user signs in for it. The archive is compressed already.
    { config: { access: 'public' }, schema: { hide: true }, compress: false },
    async (request, reply) => {
      if (!carriesKey(request.headers.authorization, key)) throw new AppError('NOT_FOUND', m.notFound());
      const body = new PassThrough();
      write(body).then(
        (manifest) => request.log.info({ rows: manifest.rows, images: manifest.images }, 'backup written'),
        (error: unknown) => {
          if (reply.raw.destroyed && !reply.raw.writableFinished) {
            request.log.warn('backup not finished: the command reading it went away');
          } else {
            request.log.error({ err: error }, 'backup failed');
          }
          // Cut short: the command reading it finds the archive incomplete and says so.
          body.destroy(error as Error);
        },
      );
      return reply.header('content-type', 'application/gzip').header('cache-control', 'no-store').send(body);
    },
  );
};
