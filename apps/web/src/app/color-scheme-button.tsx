import { ActionIcon, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';

/** Each scheme with the button's name while it is on: what it is, and what the next press gives. */
const SCHEMES: { value: MantineColorScheme; label: () => string; Icon: typeof IconSun }[] = [
  { value: 'auto', label: m.appColorSchemeAuto, Icon: IconDeviceDesktop },
  { value: 'light', label: m.appColorSchemeLight, Icon: IconSun },
  { value: 'dark', label: m.appColorSchemeDark, Icon: IconMoon },
];

/**
 * Light, dark, or the system's choice (the default): each press takes the next. The choice is
 * kept in this browser and applied before the page is drawn (@bmet/shared/boot-script).
 */
export function ColorSchemeButton() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const index = Math.max(
    0,
    SCHEMES.findIndex((scheme) => scheme.value === colorScheme),
  );
  const current = SCHEMES[index]!;
  const next = SCHEMES[(index + 1) % SCHEMES.length]!;
  const label = current.label();
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      aria-label={label}
      title={label}
      onClick={() => setColorScheme(next.value)}
    >
      <current.Icon size={18} aria-hidden />
    </ActionIcon>
  );
}
