import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { CAR_TYPES, STATES, STORED_DOCUMENT_KEYS } from '../constants';
import {
  FUELS,
  VEHICLE_OWNERS,
  VEHICLE_PROBLEMS,
  isIndianRegistration,
  normaliseRegistration,
} from '../vehicle-rules';
import { calendarDaySchema, envelope, listTotalShape } from './common';
import { complianceProblemSchema, driverDocumentSchema } from './driver';
import { VEHICLE_SORTS, sortShape } from './sort';

/** A vehicle as the lists and its page show it. */
export const vehicleSchema = z.object({
  id: z.uuid(),
  /** Normalised: capitals and digits (`MH12AB1234`). */
  registrationNumber: z.string(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  year: z.number().int().nullable(),
  colour: z.string().nullable(),
  firstRegisteredOn: z.string().nullable(),
  fuel: z.enum(FUELS).nullable(),
  carType: z.enum(CAR_TYPES).nullable(),
  seats: z.number().int().nullable(),
  owner: z.enum(VEHICLE_OWNERS).nullable(),
  state: z.enum(STATES).nullable(),
  franchiseId: z.uuid().nullable(),
  franchiseName: z.string().nullable(),
  driverId: z.uuid().nullable(),
  driverName: z.string().nullable(),
  /** Whole years since first registration, else since the model year (`ageFrom` says which). */
  ageYears: z.number().int().nullable(),
  ageFrom: z.enum(['first_registration', 'model_year']).nullable(),
  /** The age limit of the vehicle's state today (8 years unless the state notified another). */
  ageLimitYears: z.number().int(),
  /** Its age within its state's limit, and each document it needs approved and unexpired. */
  compliance: z.object({
    compliant: z.boolean(),
    problems: z.array(z.enum(VEHICLE_PROBLEMS)),
    documents: z.array(complianceProblemSchema),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;

export const vehicleAssignmentSchema = z.object({
  driverId: z.uuid(),
  driverName: z.string(),
  since: z.string(),
  until: z.string().nullable(),
  /** Who made it: the driver app (its car details), or a staff member (named). */
  source: z.enum(['app', 'staff']),
  byName: z.string().nullable(),
});
export type VehicleAssignment = z.infer<typeof vehicleAssignmentSchema>;

export const VEHICLE_COMPLIANCE_FILTERS = ['compliant', 'not_compliant'] as const;

export const vehicleListQuerySchema = z.object({
  /** Registration number in any spacing, make or model. */
  q: z.string().trim().max(100).optional(),
  compliance: z.enum(VEHICLE_COMPLIANCE_FILTERS).optional(),
  /** The vehicle a driver drives now (the driver dashboard's). */
  driverId: z.uuid({ error: () => m.notValidId() }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(VEHICLE_SORTS),
});

export const vehicleListResponseSchema = z.object({
  data: z.record(z.string(), vehicleSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});

export const vehicleDetailResponseSchema = envelope(
  vehicleSchema.extend({
    assignments: z.array(vehicleAssignmentSchema),
    /**
     * Its documents (registration, fitness, permit, pollution, insurance): those its driver holds
     * for it, or, with no driver, those parked with it (decision 030).
     */
    documents: z.array(driverDocumentSchema),
    /** Those of its documents it does not need: an electric vehicle's pollution certificate, its permit where the state exempts it. */
    exemptDocuments: z.array(z.enum(STORED_DOCUMENT_KEYS)),
  }),
);
export const vehicleResponseSchema = envelope(vehicleSchema);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || null)
    .nullable()
    .optional();

/** A registration number in any spacing, stored normalised; Indian forms only. */
export const registrationNumberSchema = z
  .string()
  .trim()
  .max(20, { error: () => m.vehicleNumberInvalid() })
  .transform(normaliseRegistration)
  .refine(isIndianRegistration, { error: () => m.vehicleNumberInvalid() });

const vehicleFields = {
  make: optionalText(60),
  model: optionalText(60),
  year: z
    .number({ error: () => m.vehicleYearInvalid() })
    .int({ error: () => m.vehicleYearInvalid() })
    .min(1980, { error: () => m.vehicleYearInvalid() })
    .max(2100, { error: () => m.vehicleYearInvalid() })
    .nullable()
    .optional(),
  colour: optionalText(40),
  firstRegisteredOn: calendarDaySchema(() => m.vehicleDateInvalid())
    .nullable()
    .optional(),
  fuel: z.enum(FUELS).nullable().optional(),
  carType: z.enum(CAR_TYPES).nullable().optional(),
  seats: z
    .number({ error: () => m.vehicleSeatsInvalid() })
    .int({ error: () => m.vehicleSeatsInvalid() })
    .min(1, { error: () => m.vehicleSeatsInvalid() })
    .max(60, { error: () => m.vehicleSeatsInvalid() })
    .nullable()
    .optional(),
  owner: z.enum(VEHICLE_OWNERS).nullable().optional(),
  state: z.enum(STATES).nullable().optional(),
};

/** `POST /api/vehicles`: a franchise's own, a city dealer's for one of its franchises, an admin's for any or none. */
export const createVehicleBodySchema = z.strictObject({
  registrationNumber: registrationNumberSchema,
  ...vehicleFields,
  franchiseId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
});
export type CreateVehicleBody = z.infer<typeof createVehicleBodySchema>;

/** `PATCH /api/vehicles/{id}`: the fields given change; null clears one. */
export const updateVehicleBodySchema = z.strictObject({
  registrationNumber: registrationNumberSchema.optional(),
  ...vehicleFields,
});
export type UpdateVehicleBody = z.infer<typeof updateVehicleBodySchema>;

/** `PUT /api/vehicles/{id}/assignment`: the driver who drives it from now, or null for none. */
export const vehicleAssignmentBodySchema = z.strictObject({
  driverId: z.uuid({ error: () => m.notValidId() }).nullable(),
});
