// Waiting for something to change in the claims directory without a busy loop: fs.watch wakes
// us at once on local filesystems; a slow poll covers filesystems where watch events are missing
// (network mounts, some containers). Used by `take --wait` and `log --follow`.
import { watch, type FSWatcher } from "node:fs";
import { freshLookups } from "./lookups.js";

const POLL_MS = 500;

/**
 * Calls `onChange` now, then after every change in `dir` (and at least every 500 ms, which also
 * notices a claim going stale), until `signal` aborts or `onChange` returns true. `relevant` can
 * ignore changes by file name (our own locks and temp files, say).
 */
export function waitForChanges(
  dir: string,
  onChange: () => boolean | void,
  signal: AbortSignal,
  relevant: (fileName: string) => boolean = () => true,
): Promise<void> {
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      watcher?.close();
      if (timer) clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, POLL_MS);
    };
    const run = () => {
      if (done) return;
      freshLookups(); // each look after a change is a new look (src/os/lookups.ts)
      if (onChange() === true) finish();
      else schedule();
    };
    signal.addEventListener("abort", finish);
    try {
      watcher = watch(dir, { persistent: true }, (_event, fileName) => {
        if (fileName === null || relevant(fileName.toString())) run();
      });
      watcher.on("error", () => watcher?.close());
    } catch {
      watcher = undefined; // polling alone
    }
    run();
  });
}
