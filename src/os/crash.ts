// Crash injection for the test suite: with CLAIMS_CRASH_AT=<step>, the process kills itself with
// SIGKILL at that step, as a power cut or an OOM kill would, so tests can prove that a writer
// killed anywhere leaves only debris that sweep removes. A no-op otherwise (two env lookups).
export type CrashStep =
  | "temp-written" // a temp file written, not yet fsynced
  | "before-link" // a new claim's temp file complete, not linked
  | "after-link" // a new claim linked, temp not removed, directory not fsynced, not read back
  | "lock-won" // a claim lock won, nothing changed yet
  | "before-rename" // a replacement written to its temp file, not renamed over the claim
  | "after-rename" // a claim replaced, its lock not removed yet
  | "before-unlink" // holding the lock, about to remove a claim (release, sweep)
  | "token-issued" // a fencing token written, its claim not yet
  | "grant-acquired" // a queued interest's claim written, the interest not yet removed
  | "clock-probed" // a probe of the filesystem's clock made, not yet removed (or, where this process reads the kernel's clock, that clock read)
  | "race-waiting"; // a take that met a claim in another claims directory after its grant, waiting for it to go (src/commands/take-links.ts)

export function crashPoint(step: CrashStep): void {
  if (process.env.CLAIMS_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
  // And CLAIMS_STOP_AT=<step> stops it there the first time (SIGSTOP), as a paused or descheduled
  // process would stall, until the test lets it go on (SIGCONT).
  if (process.env.CLAIMS_STOP_AT === step && !stopped) {
    stopped = true;
    process.kill(process.pid, "SIGSTOP");
  }
}

let stopped = false;
