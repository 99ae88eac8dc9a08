import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { LanguageProvider } from '../lib/language';
import { SessionProvider } from '../lib/session-context';
import { m } from '@bmet/shared/paraglide/messages';
import themeClasses from './theme.module.css';

// Read each time a dialog draws its close button, so that it is named in the language of the moment.
const closeButtonProps = {
  get 'aria-label'() {
    return m.close();
  },
};

// The notifications' container loads after the first screen; notifications shown before it are kept.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

export const theme = createTheme({
  primaryColor: 'teal',
  // The darkest teal: white text on a filled button keeps 4.5:1 (the default shade gives 2.4:1),
  // and so do links and active items in both colour schemes.
  primaryShade: 9,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  // A plain object rather than Modal.extend(), which would bring the dialog's code into every first load.
  components: {
    Modal: {
      classNames: { content: themeClasses.modalContent, inner: themeClasses.modalInner },
      // Every dialog's close button has a name, whatever the screen forgets; its title bar (a
      // <header>) is not a second banner landmark beside the page's own.
      defaultProps: { closeButtonProps, attributes: { header: { role: 'none' } } },
    },
    Drawer: { defaultProps: { closeButtonProps, attributes: { header: { role: 'none' } } } },
    // The eye button of every password field, named in the language of the moment.
    PasswordInput: {
      defaultProps: {
        visibilityToggleButtonProps: {
          get 'aria-label'() {
            return m.passwordVisibility();
          },
        },
      },
    },
  },
});

/**
 * Text at 4.5:1 or better in the light scheme: dimmed text a shade darker, and the light variant
 * of badges and buttons (text of a colour on a pale wash of it) paler underneath and darker on top
 * than Mantine's defaults (teal text on its wash was 4.3:1, yellow 2.7:1). The dark scheme's own
 * values already pass, but for dimmed text.
 */
const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  // A hovered filled button darker than at rest, not lighter: white on teal 8 is 3.9:1.
  variables: {
    '--mantine-color-teal-filled-hover': 'color-mix(in srgb, var(--mantine-color-teal-9), black 20%)',
  },
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Field errors at 4.5:1 or better (Mantine's red gives 3.3:1 on white).
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.keys(theme.colors).flatMap((color) => [
        [`--mantine-color-${color}-light`, `var(--mantine-color-${color}-0)`],
        [`--mantine-color-${color}-light-hover`, `var(--mantine-color-${color}-1)`],
        [
          `--mantine-color-${color}-light-color`,
          `color-mix(in srgb, var(--mantine-color-${color}-9), black 30%)`,
        ],
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // Field errors at 4.5:1 or better (Mantine's red gives 3.4:1 on the dark inputs).
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        {/* Bottom right: at the top they covered the header's controls, or below it the page's own. */}
        <Notifications position="bottom-right" />
      </Suspense>
      <SessionProvider>
        <LanguageProvider>{children}</LanguageProvider>
      </SessionProvider>
    </MantineProvider>
  );
}
