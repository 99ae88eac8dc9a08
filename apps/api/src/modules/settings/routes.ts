import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingsResponseSchema } from '@bmet/shared/schemas/settings';
import { errorResponses } from '../../lib/error-responses';

export type SettingsRoutesOptions = { mapTileUrl: string; mapAttribution: string };

export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, options) => {
  app.get(
    '/settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['settings'],
        summary: 'Run-time settings of the web app (map tiles)',
        response: { 200: settingsResponseSchema, ...errorResponses(401) },
      },
    },
    async () => ({ data: { mapTileUrl: options.mapTileUrl, mapAttribution: options.mapAttribution } }),
  );
};
