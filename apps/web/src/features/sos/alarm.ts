/**
 * The alarm: beeps made with the Web Audio API (no sound file to load). Browsers let a page play
 * sound only after a click or key on it; before that, `beep` does nothing rather than fail.
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || !('AudioContext' in window)) return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

/** `count` beeps; `urgent` ones are louder, higher and closer together. */
export function beep(count: number, urgent: boolean): void {
  const ctx = audio();
  if (!ctx || ctx.state !== 'running') return;
  const length = urgent ? 0.15 : 0.22;
  const gap = urgent ? 0.08 : 0.18;
  for (let i = 0; i < count; i++) {
    const start = ctx.currentTime + i * (length + gap);
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = urgent ? 1320 : 880;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(urgent ? 0.5 : 0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start);
    oscillator.stop(start + length + 0.02);
  }
}

/** Opens the audio at the first click or key anywhere, so that an alert arriving later is heard. */
export function unlockAudioOnGesture(): () => void {
  const unlock = () => void audio();
  window.addEventListener('pointerdown', unlock, { once: true });
  window.addEventListener('keydown', unlock, { once: true });
  return () => {
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
}

const MUTE_KEY = 'bmet.sosMuted';

export function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(MUTE_KEY, '1');
    else localStorage.removeItem(MUTE_KEY);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}
