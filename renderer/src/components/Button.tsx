import type { ButtonHTMLAttributes, ReactElement } from 'react';
import { Icon, type IconName } from './Icon.js';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `primary` for the one main action of a view; `quiet` for actions inside dense rows and bars. */
  variant?: 'default' | 'primary' | 'quiet' | 'danger';
  icon?: IconName;
}

export function Button({ variant = 'default', icon, className, children, type = 'button', ...rest }: ButtonProps): ReactElement {
  const classes = ['button', variant !== 'default' ? `button--${variant}` : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {icon !== undefined && <Icon name={icon} />}
      {children}
    </button>
  );
}
