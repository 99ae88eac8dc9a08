/** Checks of the values a list's address holds: a value that fails its check is ignored. */
export type ParamCheck = (value: string) => boolean;

export const isUuid: ParamCheck = (value) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** A real calendar day as YYYY-MM-DD (not 2026-02-31). */
export const isDate: ParamCheck = (value) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
};

export const oneOf =
  (values: readonly string[]): ParamCheck =>
  (value) =>
    values.includes(value);

/** A name shown beside a filter (a chip's label): any text of a sensible length. */
export const isLabel: ParamCheck = (value) => value.length <= 200;
