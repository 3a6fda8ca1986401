'use client';

import { PanelLeft, PanelRight, X } from 'lucide-react';
import {
  createContext,
  type KeyboardEvent,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import type { Dictionary } from './i18n';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { useWorkspace } from './workspace-provider';

/** Dictionary keys whose value is a plain string: what can name a drawer. */
type DrawerLabel = {
  [KEY in keyof Dictionary]: Dictionary[KEY] extends string ? KEY : never;
}[keyof Dictionary];

const CloseDrawerContext = createContext<() => void>(() => {});

/**
 * Closes the drawer the caller is rendered in, e.g. after choosing a chat. Outside a
 * drawer (the wide-screen column) it does nothing, so the same component serves both.
 */
export function useCloseDrawer(): () => void {
  return use(CloseDrawerContext);
}

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/**
 * A header button that opens `children` as a modal drawer from the left or right edge:
 * how narrow screens reach a column the grid hides. `className` hides the button and the
 * drawer at the breakpoint where that column shows (e.g. `md:hidden`).
 *
 * Closes on Escape, on the backdrop, with its close button, or when a child calls
 * {@link useCloseDrawer}. Focus moves to the close button on open, stays inside while
 * open (Tab wraps), and returns to the header button on close.
 */
export function Drawer({
  side,
  label,
  className,
  children,
}: {
  /** The edge the drawer slides from; also picks the button's icon. */
  side: 'left' | 'right';
  /** Names both the header button and the dialog. */
  label: DrawerLabel;
  /** Classes for the button and the drawer, typically the breakpoint that hides them. */
  className?: string;
  children: ReactNode;
}) {
  const { t } = useWorkspace();
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    if (open) closeRef.current?.focus();
    else if (wasOpen.current) triggerRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab' || panelRef.current === null) return;
    // aria-modal tells assistive technology the page behind is out of reach; Tab has to agree.
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(focusableSelector)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (first === undefined || last === undefined) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const Icon = side === 'left' ? PanelLeft : PanelRight;
  return (
    <>
      <Button
        ref={triggerRef}
        variant="ghost"
        size="icon"
        aria-label={t[label]}
        aria-haspopup="dialog"
        aria-expanded={open}
        className={className}
        onClick={() => setOpen(true)}
      >
        <Icon />
      </Button>
      {open &&
        // A portal keeps the fixed overlay clear of the header's stacking and overflow.
        createPortal(
          <div data-slot="drawer" className={cn('fixed inset-0 z-50', className)}>
            {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a pointer shortcut; keyboards have Escape and the close button. */}
            <div data-slot="drawer-backdrop" className="absolute inset-0 bg-black/50" onClick={close} />
            <div
              ref={panelRef}
              role="dialog"
              aria-modal="true"
              aria-label={t[label]}
              tabIndex={-1}
              data-slot="drawer-panel"
              className={cn(
                'absolute inset-y-0 flex w-80 max-w-[85vw] flex-col bg-sidebar shadow-lg outline-none',
                side === 'left' ? 'left-0' : 'right-0',
              )}
              onKeyDown={onKeyDown}
            >
              <Button
                ref={closeRef}
                variant="ghost"
                size="icon-sm"
                aria-label={t.close}
                className="absolute top-2.5 right-2.5 z-10"
                onClick={close}
              >
                <X />
              </Button>
              <CloseDrawerContext value={close}>{children}</CloseDrawerContext>
            </div>
          </div>,
          document.body,
        )}
    </>
  );
}
