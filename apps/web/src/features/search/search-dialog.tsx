import { Loader, Modal, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconBuilding,
  IconBuildingStore,
  IconRoute,
  IconSearch,
  IconSteeringWheel,
  IconUserCircle,
} from '@tabler/icons-react';
import { useEffect, useId, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import type { SearchKind } from '@bmet/shared/schemas/search';
import { SEARCH_QUERY_LENGTH } from '@bmet/shared/search-limits';
import { QueryProvider } from '../../lib/query-client';
import { useSession } from '../../lib/session-context';
import { useSearchMatches } from './api';
import { matchGroups, searchHints, type MatchOption } from './search-matches';
import classes from './search.module.css';

const ICONS: Record<SearchKind, typeof IconUserCircle> = {
  drivers: IconSteeringWheel,
  trips: IconRoute,
  customers: IconUserCircle,
  cityDealers: IconBuilding,
  franchises: IconBuildingStore,
};

type Props = {
  opened: boolean;
  onClose: () => void;
  /** What was typed after opening, before the box had the focus. */
  takeTypedAhead: () => string;
};

const optionId = (dialogId: string, index: number) => `${dialogId}-option-${index}`;

/** The header search's dialog, with the data layer it asks through. */
export function SearchDialog(props: Props) {
  return (
    <QueryProvider>
      <SearchDialogInner {...props} />
    </QueryProvider>
  );
}

/**
 * One box for every kind of record the user may list, following the WAI-ARIA combobox pattern:
 * the focus stays in the box, the arrow keys move the active result (aria-activedescendant),
 * Enter opens it, Escape closes the dialog. Results are grouped by kind under headings; a click
 * opens one too. Requests go when typing pauses.
 */
function SearchDialogInner({ opened, onClose, takeTypedAhead }: Props) {
  const { session } = useSession();
  const navigate = useNavigate();
  const id = useId();
  // Mantine's own debounce, not lib/use-search: sharing that would cut it into a chunk of its own.
  const [search, setSearch] = useState('');
  const typed = search.trim();
  const [q] = useDebouncedValue(typed, 200);
  const asked = q.length >= SEARCH_QUERY_LENGTH.min ? q : null;
  const matches = useSearchMatches(asked);
  const ready = typed.length >= SEARCH_QUERY_LENGTH.min && asked !== null;
  const answer = ready ? matches.data : undefined;
  // Each result with its place in the list, which the arrow keys walk through group after group.
  const groups = useMemo(() => {
    let next = 0;
    return (answer ? matchGroups(answer.results) : []).map((group) => ({
      ...group,
      options: group.options.map((option) => ({ ...option, index: next++ })),
    }));
  }, [answer]);
  const options = useMemo(() => groups.flatMap((group) => group.options), [groups]);

  // A new answer starts with no result active: the arrow keys choose one.
  const [active, setActive] = useState(-1);
  const [shownAnswer, setShownAnswer] = useState(answer);
  if (answer !== shownAnswer) {
    setShownAnswer(answer);
    setActive(-1);
  }
  const listboxId = `${id}-results`;

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(id, active))?.scrollIntoView({ block: 'nearest' });
  }, [active, id]);

  const openOption = (option: MatchOption) => {
    onClose();
    void navigate(option.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) =>
        current < 0 && step < 0 ? options.length - 1 : (current + step + options.length) % options.length,
      );
    } else if (event.key === 'Enter' && active >= 0 && options[active]) {
      event.preventDefault();
      openOption(options[active]);
    }
  };

  // A plain click opens the result here; a click that asks for a new tab or window leaves the dialog open.
  const onOptionClick = (event: MouseEvent) => {
    if (event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey) onClose();
  };

  const hints = session ? searchHints(session.role) : [];
  const hintList = (
    <div className={classes.hints}>
      <Text size="sm" c="dimmed">
        {m.searchYouCanFind()}
      </Text>
      <ul className={classes.hintList}>
        {hints.map((hint) => (
          <li key={hint}>
            <Text size="sm" c="dimmed" component="span">
              {hint}
            </Text>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={m.searchButton()}
      size="lg"
      classNames={{ body: classes.body }}
    >
      <TextInput
        data-autofocus
        role="combobox"
        aria-label={m.searchInputLabel()}
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={options.length > 0 ? listboxId : undefined}
        aria-activedescendant={active >= 0 ? optionId(id, active) : undefined}
        placeholder={m.searchPlaceholder()}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={ready && matches.isFetching ? <Loader size={14} aria-hidden /> : null}
        value={search}
        maxLength={SEARCH_QUERY_LENGTH.max}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          // Typed ahead, it replaces the last search; else that is selected, to be typed over.
          const typed = takeTypedAhead();
          if (typed) setSearch(typed);
          else event.currentTarget.select();
        }}
      />
      <VisuallyHidden role="status">
        {answer &&
          (options.length > 0
            ? m.searchResultCount({ count: options.length })
            : m.searchNoMatches({ q: answer.q }))}
      </VisuallyHidden>
      <div className={classes.results}>
        {typed.length < SEARCH_QUERY_LENGTH.min ? (
          <>
            {typed.length > 0 && (
              <Text size="sm" c="dimmed">
                {m.searchTypeMore({ min: SEARCH_QUERY_LENGTH.min })}
              </Text>
            )}
            {hintList}
          </>
        ) : matches.isError && !answer ? (
          <Text size="sm" c="red" role="alert">
            {matches.error.message}
          </Text>
        ) : !answer ? (
          <Text size="sm" c="dimmed">
            {m.searchSearching()}
          </Text>
        ) : options.length === 0 ? (
          <>
            <Text size="sm">{m.searchNoMatches({ q: answer.q })}</Text>
            {hintList}
          </>
        ) : (
          <div
            role="listbox"
            id={listboxId}
            aria-label={m.searchResultsLabel()}
            aria-busy={matches.isPlaceholderData || undefined}
            className={classes.listbox}
          >
            {groups.map((group) => {
              const Icon = ICONS[group.kind];
              const headingId = `${id}-${group.kind}`;
              return (
                <div key={group.kind} role="group" aria-labelledby={headingId} className={classes.group}>
                  <div id={headingId} className={classes.groupLabel}>
                    {group.label}
                  </div>
                  {group.options.map((option) => (
                    <Link
                      key={option.id}
                      id={optionId(id, option.index)}
                      role="option"
                      aria-selected={option.index === active}
                      tabIndex={-1}
                      to={option.to}
                      className={classes.option}
                      data-active={option.index === active || undefined}
                      onMouseMove={() => option.index !== active && setActive(option.index)}
                      onClick={onOptionClick}
                    >
                      <Icon size={18} aria-hidden className={classes.optionIcon} />
                      <span className={classes.optionText}>
                        <span className={classes.optionTitle}>{option.title}</span>
                        <span className={classes.optionDetail}>{option.detail}</span>
                      </span>
                    </Link>
                  ))}
                </div>
              );
            })}
          </div>
        )}
      </div>
      <Text size="xs" c="dimmed" visibleFrom="sm" className={classes.keysHelp} aria-hidden>
        {m.searchKeysHelp()}
      </Text>
    </Modal>
  );
}
