import { Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { RateField } from '@bmet/shared/constants';
import { computeFare, isNightHour } from '@bmet/shared/fare';
import { m } from '@bmet/shared/paraglide/messages';
import { RATE_FIELD_MAX } from '@bmet/shared/schemas/car-rate';
import { formatRupees } from '../../lib/format';
import { rateFieldLabel } from '../../lib/rate-fields';

export type DraftValues = Record<RateField, number | null>;

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** A value the save would refuse (no number, below zero, above its bound): no fare is shown with it. */
const isRefused = (field: RateField, value: number | null) =>
  value !== null && !(value >= 0 && value <= RATE_FIELD_MAX[field]);

/**
 * What a customer would pay with the values in the grid, saved or not: the customer app's fare for
 * a distance and the hour the ride starts.
 */
export function FarePreview({ values }: { values: DraftValues }) {
  const [km, setKm] = useState<number | string>(10);
  const [hour, setHour] = useState<number | string>(12);
  const distance = typeof km === 'number' && km >= 0 ? km : null;
  const atHour = typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : null;
  const night = atHour !== null && isNightHour(atHour);
  const { basePrice, per_km } = values;
  const nightCharge = night ? values.nightCharge : 0;

  const missing = [
    basePrice === null && rateFieldLabel('basePrice'),
    per_km === null && rateFieldLabel('per_km'),
    nightCharge === null && rateFieldLabel('nightCharge'),
  ].filter(Boolean);
  const refused = [
    isRefused('basePrice', basePrice) && rateFieldLabel('basePrice'),
    isRefused('per_km', per_km) && rateFieldLabel('per_km'),
    isRefused('nightCharge', nightCharge) && rateFieldLabel('nightCharge'),
  ].filter(Boolean);
  const ready = missing.length === 0 && refused.length === 0 && distance !== null && atHour !== null;
  const fare = ready
    ? computeFare({ basePrice: basePrice!, per_km: per_km!, nightCharge: nightCharge! }, distance, atHour)
    : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fare-preview-title">
      <Stack gap="sm">
        <Title order={4} id="fare-preview-title">
          {m.ratesPreviewTitle()}
        </Title>
        <Text size="xs" c="dimmed">
          {m.ratesPreviewExplanation()}
        </Text>
        <Group grow align="start" gap="sm">
          <NumberInput
            label={m.ratesPreviewDistance()}
            value={km}
            onChange={setKm}
            min={0}
            max={10_000}
            decimalScale={2}
            allowNegative={false}
          />
          <NumberInput
            label={m.ratesPreviewHour()}
            value={hour}
            onChange={setHour}
            min={0}
            max={23}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
          />
        </Group>
        {fare === null ? (
          <Text size="sm" c="dimmed" role="status">
            {missing.length > 0
              ? m.ratesPreviewEnterFields({ fields: missing.join(` ${m.ratesPreviewAnd()} `) })
              : refused.length > 0
                ? m.ratesPreviewCorrectFields({ fields: refused.join(` ${m.ratesPreviewAnd()} `) })
                : m.ratesPreviewEnterDistanceHour()}
          </Text>
        ) : (
          <Stack gap={4}>
            <Group justify="space-between" align="baseline">
              <Text fw={600}>{m.ratesPreviewFare()}</Text>
              <Text component="output" aria-label={m.ratesPreviewFare()} fw={700} fz="xl" aria-live="polite">
                {formatRupees(fare)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              {m.ratesPreviewBaseFare({ amount: formatRupees(Math.round(basePrice!)) })}
            </Text>
            <Text size="sm" c="dimmed">
              {m.ratesPreviewDistanceLine({
                km: Math.round(distance!),
                rate: formatRupees(per_km!),
                total: formatRupees(per_km! * Math.round(distance!)),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {night
                ? m.ratesPreviewNightCharge({ amount: formatRupees(nightCharge!), hour: hourLabel(atHour!) })
                : m.ratesPreviewNoNightCharge({ hour: hourLabel(atHour!) })}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
