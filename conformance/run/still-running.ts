// A heartbeat for the console: while checks wait on the service (an extraction, a regeneration, a delivery) no area
// ends for minutes, and a run that prints nothing looks hung. Every `everyMs` without a finished check it names the
// checks still running and what they may wait for.

export interface StillRunning {
  start(name: string, why: string): void;
  end(name: string): void;
  stop(): void;
}

export function stillRunning(say: (line: string) => void, everyMs = 30_000): StillRunning {
  const running = new Map<string, string>();
  let quietSince = Date.now();
  const timer = setInterval(() => {
    if (!running.size || Date.now() - quietSince < everyMs) return;
    const names = [...running].slice(0, 4).map(([n, why]) => `${n} (${why})`);
    const more = running.size > 4 ? ` and ${running.size - 4} more` : '';
    say(`  ... still running, ${Math.round((Date.now() - quietSince) / 1000)} s since a check ended: ${names.join(', ')}${more}`);
  }, everyMs);
  timer.unref();
  return {
    start: (name, why) => void running.set(name, why),
    end(name) {
      running.delete(name);
      quietSince = Date.now();
    },
    stop: () => clearInterval(timer),
  };
}
