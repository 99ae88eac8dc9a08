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
 * How a rate field is named on screen, in the current language (in English: its key, as the spec
 * shows it). A name that is no rate field is shown as it is.
 */
export const rateFieldLabel = (field: string): string =>
  field in RATE_FIELD_LABEL ? RATE_FIELD_LABEL[field as RateField]() : field;
