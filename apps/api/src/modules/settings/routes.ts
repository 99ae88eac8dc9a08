import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@bmet/shared/errors';
import { settingsResponseSchema } from '@bmet/shared/schemas/settings';

export type SettingsRoutesOptions = { mapTileUrl: string; mapAttribution: string };

export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, options) => {
  app.get(
    '/settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['settings'],
        summary: 'Run-time settings of the web app (map tiles)',
        response: { 200: settingsResponseSchema, 401: errorBodySchema },
      },
    },
    async () => ({ data: { mapTileUrl: options.mapTileUrl, mapAttribution: options.mapAttribution } }),
  );
};
