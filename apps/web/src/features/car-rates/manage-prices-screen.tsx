import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { Page } from '../../components/page';
import { stateLabel } from '../../lib/format';
import { useAllRates } from './api';

// Step 2's editor (with the shared rate schema that checks the form, and the number inputs) loads
// after step 1 has shown: fetched in the background while the admin picks a state.
const loadEditor = () => import('./state-rates-editor');
const StateRatesEditor = lazy(() => loadEditor().then((m) => ({ default: m.StateRatesEditor })));

function LoadingRates() {
  return (
    <Group gap="xs" role="status">
      <Loader size="xs" />
      <Text size="sm">{m.loadingRates()}</Text>
    </Group>
  );
}

/** The spec's 'Manage prices': step 1 chooses a state, step 2 edits its rates by car type. */
export function ManagePricesScreen() {
  const [state, setState] = useState<State | null>(null);
  // The state reached with the keyboard in the chooser, not yet opened.
  const [typed, setTyped] = useState<State | null>(null);
  const keyboard = useRef(false);
  const open = (chosen: State | null) => {
    setTyped(null);
    setState(chosen);
  };
  const rates = useAllRates();
  useEffect(() => {
    void loadEditor();
  }, []);

  const failed = rates.isError && (
    <Alert color="red" variant="light" role="alert" title={m.errorFetchingRates()}>
      <Stack gap="xs" align="start">
        <Text size="sm">{rates.error.message}</Text>
        <Button
          size="xs"
          variant="white"
          color="red"
          loading={rates.isFetching}
          onClick={() => void rates.refetch()}
        >
          {m.ratesTryAgain()}
        </Button>
      </Stack>
    </Alert>
  );

  if (state === null) {
    return (
      <Page title={m.manageRatesTitle()}>
        <Paper withBorder p="md" radius="md" maw={480}>
          <Stack gap="sm">
            <NativeSelect
              label={m.ratesStateLabel()}
              description={m.ratesStateDescription()}
              value={typed ?? ''}
              onChange={(event) => {
                const chosen = (event.currentTarget.value as State) || null;
                // Arrow keys and typing move through the states: Enter (or leaving the field)
                // opens the one reached. A pointer's choice opens at once.
                if (keyboard.current) setTyped(chosen);
                else open(chosen);
              }}
              onKeyDown={(event) => {
                keyboard.current = event.key !== 'Enter';
                if (event.key === 'Enter' && typed) open(typed);
              }}
              onPointerDown={() => {
                keyboard.current = false;
              }}
              onBlur={() => typed && open(typed)}
              data={[
                { value: '', label: m.selectState(), disabled: true },
                ...STATES.map((s) => ({ value: s, label: stateLabel(s) })),
              ]}
            />
            {rates.isPending && <LoadingRates />}
            {failed}
          </Stack>
        </Paper>
      </Page>
    );
  }

  return (
    <Page title={m.manageRatesTitle()}>
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={m.ratesBackToStates()}
          onClick={() => setState(null)}
        >
          <IconArrowLeft size={20} />
        </ActionIcon>
        <Title order={3}>{m.updateRatesFor({ state: stateLabel(state) })}</Title>
      </Group>
      {rates.isPending && <LoadingRates />}
      {failed}
      {rates.data && (
        <Suspense fallback={<LoadingRates />}>
          <StateRatesEditor
            key={state}
            state={state}
            rates={rates.data[state] ?? {}}
            reload={async () => {
              const result = await rates.refetch({ throwOnError: true });
              return result.data?.[state] ?? {};
            }}
          />
        </Suspense>
      )}
    </Page>
  );
}
