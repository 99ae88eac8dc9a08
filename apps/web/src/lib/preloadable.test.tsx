import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { flushSync } from 'react-dom';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Greeting = ({ name }: { name: string }) => <p>Hello, {name}</p>;

/** A part whose code comes when `arrive` is called, and how many times it was asked for. */
function onDemand() {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const asked = { count: 0 };
  const part = preloadable(() => {
    asked.count++;
    return arrived.then(() => Greeting);
  });
  return { part, arrive, asked };
}

describe('preloadable', () => {
  it('shows the fallback until its code comes, as React.lazy does', async () => {
    const { part, arrive } = onDemand();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <part.Component name="Asha" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    await act(async () => arrive());
    expect(await screen.findByText('Hello, Asha')).toBeInTheDocument();
  });

  it('is drawn in the same pass once its code was loaded ahead, as the browser’s Print needs', async () => {
    const { part, arrive, asked } = onDemand();
    const ready = part.preload();
    arrive();
    await ready;
    const container = document.createElement('div');
    document.body.append(container);
    const { rerender } = render(<Suspense fallback={<p>Loading</p>}>{null}</Suspense>, { container });
    // One synchronous pass, as a `beforeprint` handler draws the page: no fallback in between.
    flushSync(() =>
      rerender(
        <Suspense fallback={<p>Loading</p>}>
          <part.Component name="Ravi" />
        </Suspense>,
      ),
    );
    expect(container.textContent).toBe('Hello, Ravi');
    expect(asked.count).toBe(1);
  });
});
