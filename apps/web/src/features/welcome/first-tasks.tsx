import { Paper, SimpleGrid, Skeleton, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import type { complianceSummaryResponseSchema } from '@bmet/shared/schemas/compliance';
import type { statsOverviewResponseSchema } from '@bmet/shared/schemas/dashboard';
import { apiRequest } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import classes from './first-tasks.module.css';

const IST_OFFSET_MS = 5.5 * 3_600_000;

/** Today's date in India (YYYY-MM-DD), whatever the browser's zone. */
const todayInIndia = () => new Date(Date.now() + IST_OFFSET_MS).toISOString().slice(0, 10);

/** What a staff member looks at first, each in their own scope: today's trips, who is live, what awaits review. */
export function FirstTasks() {
  const today = todayInIndia();
  const overview = useQuery({
    queryKey: ['welcome', 'overview', today],
    queryFn: ({ signal }) =>
      apiRequest<typeof statsOverviewResponseSchema>('GET', `/stats/overview?from=${today}&to=${today}`, {
        signal,
      }).then((r) => r.data),
  });
  const compliance = useQuery({
    queryKey: ['welcome', 'compliance'],
    queryFn: ({ signal }) =>
      apiRequest<typeof complianceSummaryResponseSchema>('GET', '/compliance/summary', { signal }).then(
        (r) => r.data,
      ),
  });
  const tasks = [
    { label: m.welcomeTripsToday(), count: overview.data?.trips, to: `/trips?from=${today}&to=${today}` },
    { label: m.welcomeDriversLive(), count: overview.data?.activeDrivers, to: '/fleet' },
    {
      label: m.welcomeAwaitingReview(),
      count: compliance.data?.awaitingReview,
      to: '/compliance?view=review',
    },
  ];
  return (
    <section aria-labelledby="welcome-tasks-title">
      <Title order={3} size="h4" id="welcome-tasks-title" mb="xs">
        {m.welcomeTasksTitle()}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {tasks.map(({ label, count, to }) => (
          <UnstyledButton key={to} component={Link} to={to} className={classes.task}>
            <Paper withBorder p="md" radius="md" className={classes.card}>
              {count === undefined ? (
                <Skeleton height={32} width={64} />
              ) : (
                <Text fz={28} fw={700} lh={1.1}>
                  {formatCount(count)}
                </Text>
              )}
              <Text size="sm" c="dimmed" mt={4}>
                {label}
              </Text>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </section>
  );
}
