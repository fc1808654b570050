import { useCallback, useRef, type ComponentPropsWithRef, type MouseEvent, type ReactElement, type Ref } from 'react';
import { Icon, type IconName } from './Icon.js';
import './button.css';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /**
   * `primary` for the one main action of a view; `quiet` for actions inside dense rows and bars;
   * `chip` for a filter that is on or off (with aria-pressed); `plain` for a control that takes the
   * look of what holds it (a sortable column's header).
   */
  variant?: 'default' | 'primary' | 'quiet' | 'danger' | 'chip' | 'plain';
  icon?: IconName;
}

/** The caller's ref (an object or a callback) and the button's own, as one callback. */
function useBothRefs(own: { current: HTMLButtonElement | null }, theirs: Ref<HTMLButtonElement> | undefined): (node: HTMLButtonElement | null) => void {
  return useCallback(
    (node: HTMLButtonElement | null) => {
      own.current = node;
      if (typeof theirs === 'function') theirs(node);
      else if (theirs) theirs.current = node;
    },
    [own, theirs],
  );
}

/**
 * Every button of the panel; React 19 passes `ref` as a prop, so a view can move the focus to one.
 * A button disabled while it has the focus (Save, Import or Check pressed from the keyboard, waiting for
 * their own work) is only marked disabled and ignores presses: Chromium drops the focus of a button the
 * moment it is disabled, and the keyboard user would be thrown to the page's top, away from the sentence
 * that says what happened. Any other disabled button is disabled as usual (and out of the Tab order).
 */
export function Button({ variant = 'default', icon, className, children, type = 'button', disabled, onClick, ref, ...rest }: ButtonProps): ReactElement {
  const own = useRef<HTMLButtonElement | null>(null);
  const setRef = useBothRefs(own, ref);
  // Read while rendering on purpose: the render that disables it is the last moment it still has the focus.
  const holdsFocus = disabled === true && own.current !== null && own.current === document.activeElement;
  const base = variant === 'chip' ? 'chip' : variant === 'plain' ? 'button-plain' : `button${variant !== 'default' ? ` button--${variant}` : ''}`;
  const classes = [base, className ?? ''].filter(Boolean).join(' ');
  const ignore = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <button ref={setRef} type={type} className={classes} {...rest} disabled={disabled === true && !holdsFocus} {...(holdsFocus ? { 'aria-disabled': true } : {})} onClick={holdsFocus ? ignore : onClick}>
      {icon !== undefined && <Icon name={icon} />}
      {children}
    </button>
  );
}
