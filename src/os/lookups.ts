// What one verb looks up in the file system again and again: whether a directory holds a `.claims`
// (up from the working directory and from each target, before a grant and after it), where a
// path's symlinks lead (and how far a walk of its directories got), whether a path exists or is a
// directory, and which packages lie under a tree (a hard-linked file's other names). A take of one
// file asked the same few directories about forty times.
//
// Remembered while a verb runs (asOneVerb), never longer, and never outside one: each verb starts
// with the files as they are; what was remembered is forgotten as soon as the verb awaits or returns
// (so before the event loop next waits: a take's `--wait`, a race it settles, the next request to
// `claims mcp`) and wherever a verb must see a change made while it ran (freshLookups: a take's
// look after its grant, a lock it waited for, each look of a wait for changes). Only answers are
// remembered, never an error (nothing there is an answer; a path that could not be asked is not).

const tables: Array<Map<string, unknown>> = [];
let verbs = 0;
let forgetting = false;

/** A table of answers by key, emptied with every other by freshLookups. */
export function lookupTable<Value>(): Map<string, Value> {
  const table = new Map<string, Value>();
  tables.push(table as Map<string, unknown>);
  return table;
}

/** The answer `table` holds for `key`, else `look()`'s, kept while the verb runs (outside a verb: looked up every time). */
export function remembered<Value>(table: Map<string, Value>, key: string, look: () => Value): Value {
  if (verbs === 0) return look();
  if (table.has(key)) return table.get(key) as Value;
  const value = look();
  keep(table, key, value);
  return value;
}

/** What `table` holds for `key` while the verb runs; undefined outside a verb, or for a key not kept. */
export function recalled<Value>(table: Map<string, Value>, key: string): Value | undefined {
  return verbs === 0 ? undefined : table.get(key);
}

/** Keeps `value` for `key` while the verb runs (outside a verb: nothing is kept). */
export function keep<Value>(table: Map<string, Value>, key: string, value: Value): void {
  if (verbs === 0) return;
  table.set(key, value);
  if (!forgetting) {
    // A microtask: it runs as soon as the code running now awaits or returns, before the event loop
    // does anything else (a watcher's event after a timer's look must not meet that look's answers).
    // Not an immediate: a process's first setImmediate costs about 0.08 ms (Node sets its timers up
    // then), more than the few looks a verb that awaits makes again after each await.
    forgetting = true;
    void Promise.resolve().then(freshLookups);
  }
}

/** Forgets every answer: the next look asks the file system. */
export function freshLookups(): void {
  for (const table of tables) table.clear();
  forgetting = false;
}

/** Runs a verb of the library, its lookups remembered from a fresh start until it ends. */
export function asOneVerb<Result>(run: () => Result): Result {
  freshLookups();
  verbs++;
  let result: Result;
  try {
    result = run();
  } catch (error) {
    verbs--;
    throw error;
  }
  if (!(result instanceof Promise)) {
    verbs--;
    return result;
  }
  return result.finally(() => {
    verbs--;
  }) as Result;
}
