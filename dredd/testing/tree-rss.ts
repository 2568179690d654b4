// Peak memory of a process tree, read from /proc (Linux): every `intervalMs` the tree under `root` is walked and each
// process's high-water mark (VmHWM, its own peak RSS, which the kernel keeps) is noted. The peak reported is the sum
// of those marks over every process seen: at least the tree's real peak, since the processes' peaks need not
// coincide. Test and bench helper.
import { readdirSync, readFileSync } from 'node:fs';

const MB = 1024 * 1024;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process has ended
  }
}

/** Parent pid of every live process. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : Number.NaN;
    if (Number.isFinite(ppid)) out.set(Number(name), ppid);
  }
  return out;
}

function descendants(root: number): number[] {
  const ppids = parents();
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of ppids)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

const hwmBytes = (pid: number) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return m ? Number(m[1]) * 1024 : undefined;
};

export interface RssWatch {
  /** Stops watching; the peak in MB over the processes seen. */
  stop(): number;
}

/** Watches `root`'s descendants (and `root` itself when `includeRoot`). */
export function watchTreeRss(root: number, opts: { includeRoot?: boolean; intervalMs?: number } = {}): RssWatch {
  const peaks = new Map<number, number>();
  const sample = () => {
    for (const pid of [...(opts.includeRoot ? [root] : []), ...descendants(root)]) {
      const hwm = hwmBytes(pid);
      if (hwm !== undefined) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm));
    }
  };
  sample();
  const timer = setInterval(sample, opts.intervalMs ?? 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return [...peaks.values()].reduce((a, b) => a + b, 0) / MB;
    },
  };
}
