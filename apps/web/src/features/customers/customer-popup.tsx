import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import { StarRating } from '../../components/star-rating';
import { useCustomer } from './api';
import { PhoneLinks } from '../../components/phone-links';
import { Spinner } from '../../components/spinner';

/** A customer with their ratings, opened from the list (its code loads on the first open). */
export function CustomerPopup({ id, onClose }: { id: string | null; onClose: () => void }) {
  const customer = useCustomer(id);
  const c = customer.data;
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      title={c?.name ?? m.customersCustomer()}
      withCloseButton={false}
      size="lg"
    >
      {customer.isPending && <Spinner label={m.customersLoadingCustomer()} />}
      {customer.isError && <Text c="red">{customer.error.message}</Text>}
      {c && (
        <Stack gap="sm">
          <Text size="sm">
            <b>{m.customersNameField()}</b> {c.name}
          </Text>
          <Text size="sm">
            <b>{m.customersEmailField()}</b> {c.email ?? '-'}
          </Text>
          <Text size="sm">
            <b>{m.customersPhoneNumberField()}</b>{' '}
            {c.phoneNumber ? <PhoneLinks phone={c.phoneNumber} /> : '-'}
          </Text>
          <Group gap="xs">
            <Text fw={600}>{m.customersRatings()}</Text>
            {c.rating.average !== null && (
              <Text size="sm" c="dimmed">
                {m.customersAverageFrom({ average: c.rating.average.toFixed(1), count: c.rating.count })}
              </Text>
            )}
          </Group>
          {c.ratings.length === 0 ? (
            <Text size="sm" c="dimmed">
              {m.customersNoRatings()}
            </Text>
          ) : (
            <Stack gap="xs" role="list" aria-label={m.customersRatings()}>
              {c.ratings.map((entry) => (
                <Paper key={entry.id} withBorder p="xs" role="listitem">
                  <Group justify="space-between" wrap="wrap">
                    <Text size="sm" fw={500}>
                      {entry.customerName ?? '-'}
                    </Text>
                    <StarRating value={entry.rating} />
                  </Group>
                  {entry.description && (
                    <Text size="sm" c="dimmed">
                      {entry.description}
                    </Text>
                  )}
                </Paper>
              ))}
            </Stack>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>{m.close()}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
