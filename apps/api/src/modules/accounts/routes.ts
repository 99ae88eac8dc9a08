import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import {
  accountSortQuerySchema,
  cityDealerListBodySchema,
  cityDealerListResponseSchema,
  cityDealerResponseSchema,
  createAccountBodySchema,
  createAccountResponseSchema,
  franchiseListQuerySchema,
  franchiseListResponseSchema,
  franchiseResponseSchema,
  updateCityDealerBodySchema,
  updateFranchiseBodySchema,
} from '@bmet/shared/schemas/account';
import { idParamSchema } from '@bmet/shared/schemas/common';
import type { Db } from '../../db/client';
import type { FirebaseWrites } from '../../infra/firebase-outbox';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { currentUser } from '../../plugins/authentication';
import { checkPasswordPolicy, hashPassword } from '../auth/password';
import { findAccountByEmail } from '../auth/repository';
import {
  deleteCityDealer,
  findActiveCityDealer,
  findCityDealer,
  findCityDealers,
  findFranchise,
  findFranchises,
  insertStaffAccount,
  updateCityDealer,
  updateFranchise,
  type AccountCaller,
} from './repository';
import { stateLabel } from '@bmet/shared/labels';
import { registerAccountExports } from './export';

export type AccountRoutesOptions = { db: Db; firebaseWrites?: FirebaseWrites };

const errors = errorResponses(400, 401, 403, 404, 409);
const notFound = () => new AppError('NOT_FOUND', m.notFound());

function callerOf(request: FastifyRequest): AccountCaller {
  const user = currentUser(request);
  return { id: user.id, role: user.role, state: user.state, requestId: request.id };
}

const LIST_DESCRIPTION =
  'Newest first by createdAt, keyed by id in list order; `q` searches name and email; pass `nextCursor` back as `cursor` for the next page.';

/**
 * City dealers and franchises: the staff accounts that admins and city dealers create. A city
 * dealer runs one state: it creates and manages franchises of its own, in its state only
 * (docs/decisions/005-dealers-franchises-and-password-reset.md).
 */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (
  app,
  { db, firebaseWrites },
) => {
  /** What both creation paths share once the body is valid: password rules, unique email, insert. */
  async function createStaffAccount(
    caller: AccountCaller,
    input: {
      role: 'city_dealer' | 'franchise';
      name: string;
      email: string;
      password: string;
      state: State;
      dealerId: string | null;
    },
  ) {
    const problem = checkPasswordPolicy(input.password);
    if (problem) throw new AppError('VALIDATION', problem, { fieldErrors: { password: [problem] } });
    if (await findAccountByEmail(db, input.email)) throw new AppError('CONFLICT', m.emailInUse());
    const passwordHash = await hashPassword(input.password);
    const uid = await insertStaffAccount(db, caller, { ...input, passwordHash }, firebaseWrites);
    return { data: { message: m.userCreated(), uid } };
  }

  app.post(
    '/city_dealer/create',
    {
      config: { access: ['city-dealers', 'create'] },
      schema: {
        tags: ['city-dealers'],
        summary: 'Create a city dealer account (signs in on the City Dealer tab)',
        body: createAccountBodySchema,
        response: { 201: createAccountResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { name, email, password, state } = request.body;
      const answer = await createStaffAccount(callerOf(request), {
        role: 'city_dealer',
        name,
        email,
        password,
        state,
        dealerId: null,
      });
      return reply.status(201).send(answer);
    },
  );

  app.post(
    '/franchise/create',
    {
      config: { access: ['franchises', 'create'] },
      schema: {
        tags: ['franchises'],
        summary: 'Create a franchise account (signs in on the Franchise tab)',
        description:
          'A city dealer creates franchises of its own, in its own state. An admin may name the city dealer (of the same state) it works under with `dealerId`.',
        body: createAccountBodySchema,
        response: { 201: createAccountResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { name, email, password, state, dealerId: chosenDealer } = request.body;
      let dealerId: string | null = null;
      if (caller.role === 'city_dealer') {
        if (!caller.state) throw new AppError('FORBIDDEN', m.forbidden());
        if (state !== caller.state) {
          const message = m.dealerOwnStateOnly({ state: stateLabel(caller.state) });
          throw new AppError('VALIDATION', message, { fieldErrors: { state: [message] } });
        }
        dealerId = caller.id;
      } else if (chosenDealer) {
        const chosen = await findActiveCityDealer(db, chosenDealer);
        if (!chosen || chosen.state !== state) {
          throw new AppError('VALIDATION', m.dealerOfOtherState(), {
            fieldErrors: { dealerId: [m.dealerOfOtherState()] },
          });
        }
        dealerId = chosen.id;
      }
      const answer = await createStaffAccount(caller, {
        role: 'franchise',
        name,
        email,
        password,
        state,
        dealerId,
      });
      return reply.status(201).send(answer);
    },
  );

  app.post(
    '/city_dealer/getcitydealers',
    {
      config: { access: ['city-dealers', 'list'] },
      schema: {
        tags: ['city-dealers'],
        summary: 'A page of the city dealers with their franchise and driver counts',
        description: `${LIST_DESCRIPTION} \`state\` keeps the dealers of one state.`,
        body: cityDealerListBodySchema,
        querystring: accountSortQuerySchema,
        response: { 200: cityDealerListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { q, limit, cursor, state } = request.body;
      // The sort as every list takes it, in the query string; the body may name it too.
      const sort = request.body.sort ?? request.query.sort;
      const order = request.body.order ?? request.query.order;
      const page = await findCityDealers(db, { q, limit, cursor, state, sort, order });
      return keyedList(page.rows, page);
    },
  );

  app.get(
    '/franchise/getFranchise',
    {
      config: { access: ['franchises', 'list'] },
      schema: {
        tags: ['franchises'],
        summary: 'A page of the franchises the caller may see (a city dealer: its own)',
        description: LIST_DESCRIPTION,
        querystring: franchiseListQuerySchema,
        response: { 200: franchiseListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await findFranchises(db, callerOf(request), request.query);
      return keyedList(page.rows, page);
    },
  );

  // One account, as its list shows it: a shared link to an open account finds it wherever it is
  // in the list.
  app.get(
    '/city_dealer/:id',
    {
      config: { access: ['city-dealers', 'list'] },
      schema: {
        tags: ['city-dealers'],
        summary: 'One city dealer, as the list shows it (404 when deleted or unknown)',
        params: idParamSchema,
        response: { 200: cityDealerResponseSchema, ...errors },
      },
    },
    async (request) => {
      const dealer = await findCityDealer(db, request.params.id);
      if (!dealer) throw notFound();
      return { data: dealer };
    },
  );

  app.get(
    '/franchise/:id',
    {
      config: { access: ['franchises', 'list'] },
      schema: {
        tags: ['franchises'],
        summary:
          'One franchise the caller may see, as the list shows it (a city dealer: its own; 404 otherwise)',
        params: idParamSchema,
        response: { 200: franchiseResponseSchema, ...errors },
      },
    },
    async (request) => {
      const franchise = await findFranchise(db, callerOf(request), request.params.id);
      if (!franchise) throw notFound();
      return { data: franchise };
    },
  );

  app.patch(
    '/city_dealer/:id',
    {
      config: { access: ['city-dealers', 'update'] },
      schema: {
        tags: ['city-dealers'],
        summary: 'Edit the name or state of a city dealer, or disable or enable it',
        description:
          'Disabling ends its sessions at once. The state cannot change while franchises work under it.',
        params: idParamSchema,
        body: updateCityDealerBodySchema,
        response: { 200: cityDealerResponseSchema, ...errors },
      },
    },
    async (request) => {
      const dealer = await updateCityDealer(
        db,
        callerOf(request),
        request.params.id,
        request.body,
        firebaseWrites,
      );
      if (!dealer) throw notFound();
      return { data: dealer };
    },
  );

  app.delete(
    '/city_dealer/:id',
    {
      config: { access: ['city-dealers', 'delete'] },
      schema: {
        tags: ['city-dealers'],
        summary: 'Delete a city dealer: it cannot sign in any more; its franchises stay, unassigned',
        params: idParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      if (!(await deleteCityDealer(db, callerOf(request), request.params.id, firebaseWrites)))
        throw notFound();
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/franchise/:id',
    {
      config: { access: ['franchises', 'update'] },
      schema: {
        tags: ['franchises'],
        summary: 'Edit the name or state of a franchise, or disable or enable it',
        description:
          "Admins, and the city dealer it works under. Only admins change `dealerId`. The state cannot change while drivers work for it; a city dealer's franchises stay in its state.",
        params: idParamSchema,
        body: updateFranchiseBodySchema,
        response: { 200: franchiseResponseSchema, ...errors },
      },
    },
    async (request) => {
      const franchise = await updateFranchise(
        db,
        callerOf(request),
        request.params.id,
        request.body,
        firebaseWrites,
      );
      if (!franchise) throw notFound();
      return { data: franchise };
    },
  );

  registerAccountExports(app, db);
};
