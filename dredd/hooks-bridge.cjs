// The hook file Dredd loads (it require()s hook files and injects `hooks`): it hands Dredd's hooks object to the
// TypeScript hooks that dredd/dredd-process.ts registered before starting Dredd in the same process.
const register = globalThis[Symbol.for('clinical-records-api/dredd-hooks')];
if (typeof register !== 'function') throw new Error('dredd/hooks-bridge.cjs is loaded by dredd/dredd-process.ts only');
register(require('hooks'));
