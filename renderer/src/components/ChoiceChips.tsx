import { useRef, type KeyboardEvent, type ReactElement } from 'react';
import { Button } from './Button.js';

export interface ChoiceChipsProps {
  /** What the choice is about, read out when the group is entered ("Kind", "Show"). */
  label: string;
  /** The choices' words, in order. */
  options: readonly string[];
  /** The index of the chosen one; -1 when none is (the first chip then takes the Tab stop). */
  chosen: number;
  onChoose: (index: number) => void;
  className?: string;
}

/** The keys that move within a group, as the step they take (Home and End go to the ends). */
const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * One choice among a few, as chips: a radio group, so the whole group is one Tab stop (the chosen chip)
 * and the arrow keys move between its chips and choose, as native radio buttons do. Chips as plain
 * toggle buttons made every choice its own Tab stop: 21 presses to get past the search filters.
 */
export function ChoiceChips({ label, options, chosen, onChoose, className }: ChoiceChipsProps): ReactElement {
  const chips = useRef<Array<HTMLButtonElement | null>>([]);
  const tabStop = chosen >= 0 && chosen < options.length ? chosen : 0;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = options.length - 1;
    const step = STEPS[event.key];
    const next = step !== undefined ? (tabStop + step + options.length) % options.length : event.key === 'Home' ? 0 : event.key === 'End' ? last : undefined;
    if (next === undefined) return;
    // The result list below also moves with the arrow keys; within the group they are the group's.
    event.preventDefault();
    event.stopPropagation();
    chips.current[next]?.focus();
    if (next !== chosen) onChoose(next);
  };
  return (
    <div className={['chip-group', className ?? ''].filter(Boolean).join(' ')} role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {options.map((option, index) => (
        <Button
          key={option}
          ref={(node: HTMLButtonElement | null) => {
            chips.current[index] = node;
          }}
          variant="chip"
          role="radio"
          aria-checked={index === chosen}
          tabIndex={index === tabStop ? 0 : -1}
          onClick={() => onChoose(index)}
        >
          {option}
        </Button>
      ))}
    </div>
  );
}
