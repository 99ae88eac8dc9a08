import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { GrievanceStatus } from '@bmet/shared/grievance-rules';
import type { UpdateGrievanceBody } from '@bmet/shared/schemas/grievance';
import { ApiError } from '../../lib/api-client';
import { GrievanceSteps } from './grievance-steps';

// Mantine's growing text areas listen for fonts loading, which jsdom does not have.
beforeAll(() => {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
});

function steps(status: GrievanceStatus, { error = null as Error | null } = {}) {
  const onStep = vi.fn((_body: UpdateGrievanceBody, done: () => void) => done());
  render(
    <MantineProvider>
      <GrievanceSteps
        grievance={{ number: 'GR-2026-000042', status }}
        saving={false}
        error={error}
        onStep={onStep}
      />
    </MantineProvider>,
  );
  return { onStep };
}

const buttonNames = () => screen.getAllByRole('button').map((button) => button.textContent);

describe('GrievanceSteps', { timeout: 30_000 }, () => {
  it.each<[GrievanceStatus, string[]]>([
    ['open', ['Mark in progress', 'Wait for the complainant', 'Resolve']],
    ['in_progress', ['Wait for the complainant', 'Resolve']],
    ['waiting', ['Mark in progress', 'Resolve']],
    ['reopened', ['Mark in progress', 'Wait for the complainant', 'Resolve']],
    ['resolved', ['Close', 'Reopen']],
    ['closed', ['Reopen']],
  ])('offers from %s only the steps the rules allow', (status, expected) => {
    steps(status);
    expect(buttonNames()).toEqual(expected);
  });

  it('asks for the resolution told to the complainant when resolving, with a note', async () => {
    const user = userEvent.setup();
    const { onStep } = steps('in_progress');
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve · GR-2026-000042' });
    await user.type(within(dialog).getByLabelText(/Resolution told to the complainant/), 'Fare refunded.');
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Called back at 4 pm.');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(onStep).toHaveBeenCalledWith(
      { status: 'resolved', note: 'Called back at 4 pm.', resolution: 'Fare refunded.' },
      expect.any(Function),
    );
  });

  it('takes any other step with only an optional note', async () => {
    const user = userEvent.setup();
    const { onStep } = steps('resolved');
    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reopen · GR-2026-000042' });
    expect(within(dialog).queryByLabelText(/Resolution told/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(onStep).toHaveBeenCalledWith({ status: 'reopened', note: null }, expect.any(Function));
  });

  it("shows the server's refusal beside the resolution", async () => {
    const user = userEvent.setup();
    const message = 'Write the resolution the complainant will be told.';
    steps('open', {
      error: new ApiError(400, {
        error: message,
        code: 'VALIDATION',
        fieldErrors: { resolution: [message] },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(message)).toBeInTheDocument();
  });
});
