import { readdirSync, readFileSync } from 'node:fs';

// Linux counts process CPU time in clock ticks of 1/100 s (USER_HZ).
const ticksPerSecond = 100;

function statOf(pid: number): { parent: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields start after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) that process `pid` and its descendants have used so far,
 * from /proc; undefined where there is no /proc. Unlike throughput, the CPU a server
 * spends per request hardly moves when other work shares the machine.
 */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || statOf(pid) === undefined) return undefined;
  const parentByPid = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat !== undefined) parentByPid.set(Number(entry), stat);
  }
  const inTree = (candidate: number): boolean => {
    for (let current: number | undefined = candidate; current !== undefined && current > 1; ) {
      if (current === pid) return true;
      current = parentByPid.get(current)?.parent;
    }
    return false;
  };
  let ticks = 0;
  for (const [candidate, stat] of parentByPid) if (inTree(candidate)) ticks += stat.ticks;
  return ticks / ticksPerSecond;
}
