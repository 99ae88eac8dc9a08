import { CloseButton } from '@mantine/core';
import { useFocusTrap } from '@mantine/hooks';
import { useEffect } from 'react';
import { m } from '@bmet/shared/paraglide/messages';

/**
 * The spec's full-screen zoom overlay: a click anywhere (or Escape, or its Close button) closes
 * it. The keyboard focus stays inside while it is open and goes back to the thumbnail after.
 */
export function ImageZoom({ src, label, onClose }: { src: string; label: string; onClose: () => void }) {
  const trap = useFocusTrap(true);
  // Back to what had the focus (the thumbnail) when the overlay goes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => opener?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div
      ref={trap}
      role="dialog"
      aria-modal="true"
      aria-label={m.driversImageEnlarged({ document: label })}
      data-testid="image-zoom-overlay"
      onClick={onClose}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        background: 'rgba(0, 0, 0, 0.85)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        cursor: 'zoom-out',
        padding: 16,
      }}
    >
      <CloseButton
        data-autofocus
        aria-label={m.close()}
        size="lg"
        variant="filled"
        color="dark"
        onClick={onClose}
        style={{ position: 'absolute', top: 12, right: 12 }}
      />
      <img src={src} alt={label} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
    </div>
  );
}
