import { useEffect, useState } from 'react';

/**
 * Whole seconds left until `deadline` (epoch ms), ticking while `active`; never
 * below 0. Ticks four times a second so the shown number changes close to the
 * real second boundary.
 */
export function useCountdown(deadline: number | null, active: boolean): number | null {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!active || deadline === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [active, deadline]);

  if (deadline === null) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
