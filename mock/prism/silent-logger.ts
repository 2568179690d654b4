// A pino logger shaped like Prism's own (it calls the custom `success` level), silent unless asked, so Prism's
// per-request logging costs nothing in normal runs.
import pino from 'pino';

export function prismLogger(verbose: boolean) {
  return pino({
    name: 'prism',
    base: {},
    customLevels: { success: pino.levels.values.info! + 2 },
    level: verbose ? 'warn' : 'silent',
    timestamp: false,
  });
}
