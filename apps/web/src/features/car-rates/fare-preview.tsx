import { Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { RateField } from '@bmet/shared/constants';
import { computeFare, isNightHour } from '@bmet/shared/fare';
import { formatRupees } from '../../lib/format';

export type DraftValues = Record<RateField, number | null>;

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

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
    basePrice === null && 'basePrice',
    per_km === null && 'per_km',
    nightCharge === null && 'nightCharge',
  ].filter(Boolean);
  const ready = missing.length === 0 && distance !== null && atHour !== null;
  const fare = ready
    ? computeFare({ basePrice: basePrice!, per_km: per_km!, nightCharge: nightCharge! }, distance, atHour)
    : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fare-preview-title">
      <Stack gap="sm">
        <Title order={4} id="fare-preview-title">
          Fare preview
        </Title>
        <Text size="xs" c="dimmed">
          What the customer app charges with the values in the grid, before you save them: round(basePrice) +
          per_km × round(km), plus nightCharge from 21:00 to 04:00.
        </Text>
        <Group grow align="start" gap="sm">
          <NumberInput
            label="Distance (km)"
            value={km}
            onChange={setKm}
            min={0}
            max={10_000}
            decimalScale={2}
            allowNegative={false}
          />
          <NumberInput
            label="Hour of day (0–23)"
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
              ? `Enter ${missing.join(' and ')} to see a fare.`
              : 'Enter a distance and an hour from 0 to 23 to see a fare.'}
          </Text>
        ) : (
          <Stack gap={4}>
            <Group justify="space-between" align="baseline">
              <Text fw={600}>Fare</Text>
              <Text component="output" aria-label="Fare" fw={700} fz="xl" aria-live="polite">
                {formatRupees(fare)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              Base fare {formatRupees(Math.round(basePrice!))}
            </Text>
            <Text size="sm" c="dimmed">
              {Math.round(distance!)} km × {formatRupees(per_km!)} ={' '}
              {formatRupees(per_km! * Math.round(distance!))}
            </Text>
            <Text size="sm" c="dimmed">
              {night
                ? `Night charge ${formatRupees(nightCharge!)} (${hourLabel(atHour!)} is between 21:00 and 04:00)`
                : `No night charge at ${hourLabel(atHour!)}`}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
