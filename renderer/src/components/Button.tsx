import type { ComponentPropsWithRef, ReactElement } from 'react';
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

/** Every button of the panel; React 19 passes `ref` as a prop, so a view can move the focus to one. */
export function Button({ variant = 'default', icon, className, children, type = 'button', ...rest }: ButtonProps): ReactElement {
  const base = variant === 'chip' ? 'chip' : variant === 'plain' ? 'button-plain' : `button${variant !== 'default' ? ` button--${variant}` : ''}`;
  const classes = [base, className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {icon !== undefined && <Icon name={icon} />}
      {children}
    </button>
  );
}
