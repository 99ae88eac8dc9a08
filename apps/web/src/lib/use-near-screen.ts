import { useIntersection } from '@mantine/hooks';
import { startTransition, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * Whether an element has come near the screen (within half a screen of it), latched once it has.
 * A key pressed anywhere counts too: someone moving through the page with Tab alone meets nothing
 * to focus in a part still waiting, and would never bring it near. So does printing (the browser's
 * own Print), which lays out the whole page. Without IntersectionObserver (an old browser), at
 * once. What comes near is drawn as a transition, in slices: a key pressed draws every part, and
 * drawn in one task that would block a phone as the first screen did.
 */
export function useNearScreen() {
  const { ref, entry } = useIntersection<HTMLElement>({ rootMargin: '50% 0px 50% 0px' });
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  const intersecting = entry?.isIntersecting ?? false;
  useEffect(() => {
    if (!near && intersecting) startTransition(() => setNear(true));
  }, [near, intersecting]);
  useEffect(() => {
    if (near) return;
    const onKey = () => startTransition(() => setNear(true));
    // The page is laid out for paper as soon as this returns: drawn at once, not later.
    const onPrint = () => flushSync(() => setNear(true));
    window.addEventListener('keydown', onKey, { once: true });
    window.addEventListener('beforeprint', onPrint, { once: true });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('beforeprint', onPrint);
    };
  }, [near]);
  return { ref, near };
}
