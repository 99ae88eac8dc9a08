import type { RateField } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';

const RATE_FIELD_LABEL: Record<RateField, () => string> = {
  per_km: m.ratesFieldPerKm,
  basePrice: m.ratesFieldBasePrice,
  nightCharge: m.ratesFieldNightCharge,
  waitingCharge: m.ratesFieldWaitingCharge,
  rushHour: m.ratesFieldRushHour,
  surCharges: m.ratesFieldSurCharges,
  extra: m.ratesFieldExtra,
};

/**
 * How a rate field is named on screen, in the current language: the words staff use (Base price,
 * Per km...). The spec names the fields only as data (the rate set's keys, kept by the API and the
 * body of a save), not as labels. A name that is no rate field is shown as it is.
 */
export const rateFieldLabel = (field: string): string =>
  field in RATE_FIELD_LABEL ? RATE_FIELD_LABEL[field as RateField]() : field;
