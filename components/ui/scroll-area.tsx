import type { ComponentProps } from 'react';
import { cn } from './cn';

/**
 * A scrolling region with a thin scrollbar. Plain overflow rather than Radix's
 * ScrollArea: native scrolling keeps find-in-page, wheel momentum and a11y intact.
 */
export function ScrollArea({ className, children, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="scroll-area" className={cn('relative min-h-0 overflow-hidden', className)}>
      <div
        data-slot="scroll-area-viewport"
        className="size-full overflow-y-auto overscroll-contain [scrollbar-width:thin]"
        {...props}
      >
        {children}
      </div>
    </div>
  );
}
