import type { ComponentProps } from 'react';
import { cn } from './cn';

/** A bordered surface that groups one piece of content. */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="card"
      className={cn(
        'flex flex-col rounded-lg border border-border bg-card text-card-foreground shadow-xs',
        className,
      )}
      {...props}
    />
  );
}

/** The top row of a {@link Card}: title on the left, actions or status on the right. */
export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="card-header"
      className={cn('flex flex-wrap items-center gap-2 border-b border-border px-3 py-2', className)}
      {...props}
    />
  );
}

/** The heading text of a {@link Card}. */
export function CardTitle({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-title" className={cn('text-sm font-medium', className)} {...props} />;
}

/** The body of a {@link Card}. */
export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="card-content" className={cn('flex flex-col gap-2 px-3 py-2', className)} {...props} />
  );
}

/** The bottom row of a {@link Card}, usually buttons. */
export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="card-footer"
      className={cn('flex flex-wrap items-center gap-2 border-t border-border px-3 py-2', className)}
      {...props}
    />
  );
}
