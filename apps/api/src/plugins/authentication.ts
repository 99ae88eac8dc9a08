import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import type { Language, Role } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Permission } from '@bmet/shared/permissions';
import { rolesFor } from '@bmet/shared/permissions';
import type { Db } from '../db/client';
import { redeemDownloadTicket } from '../lib/download-tickets';
import type { SessionMemory } from '../lib/sessions';
import { verifyIdToken } from '../lib/id-tokens';

/** Who may call a route: anyone, any signed-in user, or the roles of a permission of the matrix. */
export type Access = 'public' | 'signed-in' | Permission;

export type SessionUser = {
  id: string;
  email: string;
  displayName: string | null;
  role: Role;
  state: string | null;
  dealerId: string | null;
  /** The language the user chose, or null. */
  language: Language | null;
  sessionId: string;
};

/** Routes that accept a download ticket (the CSV exports): their permission, query schema and extra refusals. */
export type TicketedRoute = {
  access: Permission;
  query: z.ZodObject;
  authorize?: (user: SessionUser, query: never) => void;
};

export type RouteEntry = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The bearer token is a driver's device token, which the route checks itself: it is not read
     * as a staff session's token (which would fail, at the cost of a signature check, every time).
     */
    deviceToken?: true;
    /** The route may also be called with a download ticket in its query (see lib/download-tickets.ts). */
    downloadTicket?: TicketedRoute;
    /** A POST that only reads (a list whose filters are a body): it changes no session or account. */
    readsOnly?: true;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Every /api route with the access it declares (used by the permission tests). */
    routeCatalog: RouteEntry[];
    /** The GET routes (exports) that a download ticket may open, by path. */
    downloadTicketRoutes: Map<string, TicketedRoute>;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/** The download ticket in the query of a route that accepts one. */
function downloadTicket(request: FastifyRequest): string | null {
  if (!request.routeOptions.config.downloadTicket) return null;
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' && ticket ? ticket : null;
}

/** The signed-in user of a route that is not public (the hook has already checked it). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHORIZED', m.unauthorized());
  return request.user;
}

/**
 * Authenticates every /api request and applies the route's declared access before validation,
 * so an anonymous or unauthorized caller learns nothing from a 400. A route that declares no
 * access fails at startup rather than running open.
 */
export const authenticationPlugin = fp(
  async (app: FastifyInstance, options: { db: Db; jwtSecret: string; sessions: SessionMemory }) => {
    app.decorate('routeCatalog', [] as RouteEntry[]);
    app.decorate('downloadTicketRoutes', new Map<string, TicketedRoute>());
    app.decorateRequest('user', null);

    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api') || route.method === 'HEAD') return;
      const access = route.config?.access;
      if (!access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
      // A route that reads its bearer token as a device token answers no staff session: it must
      // be public, so that no staff-only route can be reached without a session by this flag.
      if (route.config?.deviceToken && access !== 'public') {
        throw new Error(
          `Route ${String(route.method)} ${route.url} takes a device token, so it must be public`,
        );
      }
      // The OpenAPI document shows which routes need no bearer token.
      if (access === 'public' && route.schema) route.schema = { ...route.schema, security: [] };
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.routeCatalog.push({ method, url: route.url, access });
      }
      const ticketed = route.config?.downloadTicket;
      if (ticketed) app.downloadTicketRoutes.set(route.url, ticketed);
      // A change a route makes to a session or an account is announced by the database to every
      // server, this one included, but the announcement may come back after the answer: sessions
      // remembered before a request that can write are looked up again after it
      // (lib/sessions.ts). Only the routes that can write carry the hook, so reads pay nothing; a
      // driver's phone (its position, its SOS) changes no staff session.
      const writes = [route.method].flat().some((method) => WRITES.has(method));
      if (writes && !route.config?.deviceToken && !route.config?.readsOnly) {
        route.onSend = [...[route.onSend ?? []].flat(), sessionsChanged];
      }
    });
    const sessionsChanged: onSendHookHandler = (_request, _reply, payload, done) => {
      options.sessions.changed();
      done(null, payload);
    };

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (!access) return; // not an /api route (static files, SPA fallback)
      const token = request.routeOptions.config.deviceToken ? null : bearerToken(request);
      if (token) {
        const claims = await verifyIdToken(token, options.jwtSecret);
        const session = claims ? await options.sessions.find(options.db, claims.sid, claims.sub) : null;
        if (session) request.user = { ...session, sessionId: claims!.sid };
        else if (access !== 'public') throw new AppError('UNAUTHORIZED', m.sessionExpired());
      } else {
        // A download by the browser's own download manager: the ticket stands for the session
        // that asked for it, once, for this very address.
        const ticket = downloadTicket(request);
        if (ticket) {
          request.user = await redeemDownloadTicket(options.db, ticket, request.url);
          if (!request.user) throw new AppError('UNAUTHORIZED', m.downloadTicketInvalid());
        }
      }
      if (access === 'public') return;
      if (!request.user) throw new AppError('UNAUTHORIZED', m.unauthorized());
      if (access === 'signed-in') return;
      if (!rolesFor(access).includes(request.user.role)) {
        throw new AppError('FORBIDDEN', m.forbidden());
      }
    });
  },
);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
