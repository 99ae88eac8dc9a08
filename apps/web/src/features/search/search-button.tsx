import { ActionIcon, Button } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { lazy, useEffect, useRef, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { OnDemand } from '../../components/on-demand';

const loadDialog = () => import('./search-dialog');
const SearchDialog = lazy(() => loadDialog().then((module) => ({ default: module.SearchDialog })));

// Key legends, as printed on the keys (not words to translate).
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const SHORTCUT = IS_MAC ? '⌘ K' : 'Ctrl K';
const KEY_SHORTCUTS = IS_MAC ? '/ Meta+K' : '/ Control+K';

// Styled in place: a style sheet of the button's own would be one more file that the first load
// of every screen names among those to fetch.
const LOOKS_LIKE_A_BOX = { label: { flex: 1 } };
const KBD = {
  padding: '0 5px',
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 4,
  fontFamily: 'var(--mantine-font-family-monospace)',
  fontSize: 11,
  lineHeight: '18px',
};

/** Whether a key pressed there is being typed: `/` is then a character, not the shortcut. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'))
  );
}

/**
 * The header's search: a button (an icon on a phone, a box with its shortcut where there is room)
 * and the keys `/` and Ctrl+K (⌘K on a Mac) from anywhere. Its code loads after the first paint,
 * and the dialog's when it is first opened (or about to be: the pointer over the button).
 */
export function SearchButton() {
  const [open, setOpen] = useState(false);
  // What is typed between opening and the box having the focus (the dialog's code may still be on
  // its way the first time): the box starts with it instead of losing it.
  const typedAhead = useRef('');

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
      const commandK =
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        !event.shiftKey &&
        event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && plain && !isTyping(event.target);
      const inDialog = event.target instanceof Element && event.target.closest('[role="dialog"]') !== null;
      if (open) {
        // The browser's own Ctrl+K never runs while the search is open.
        if (commandK) event.preventDefault();
        else if (!inDialog && plain && event.key.length === 1) {
          typedAhead.current += event.key;
          event.preventDefault();
        }
        return;
      }
      // Another dialog keeps the keys (and the focus) to itself.
      if ((!commandK && !slash) || inDialog) return;
      event.preventDefault();
      typedAhead.current = '';
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const takeTypedAhead = () => {
    const typed = typedAhead.current;
    typedAhead.current = '';
    return typed;
  };
  const triggerProps = {
    onClick: () => {
      typedAhead.current = '';
      setOpen(true);
    },
    onPointerEnter: () => void loadDialog(),
    'aria-haspopup': 'dialog' as const,
    'aria-keyshortcuts': KEY_SHORTCUTS,
    title: m.searchButtonShortcut({ keys: SHORTCUT }),
  };
  return (
    <>
      <Button
        variant="default"
        size="xs"
        w={200}
        fw={400}
        justify="flex-start"
        styles={LOOKS_LIKE_A_BOX}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <kbd style={KBD} aria-hidden>
            {SHORTCUT}
          </kbd>
        }
        visibleFrom="sm"
        {...triggerProps}
      >
        {m.searchButton()}
      </Button>
      <ActionIcon
        variant="subtle"
        color="gray"
        hiddenFrom="sm"
        aria-label={m.searchButton()}
        {...triggerProps}
      >
        <IconSearch size={18} />
      </ActionIcon>
      <OnDemand open={open}>
        <SearchDialog opened={open} onClose={() => setOpen(false)} takeTypedAhead={takeTypedAhead} />
      </OnDemand>
    </>
  );
}
