import { existsSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { hostname } from "node:os";
import { ownMachineIdentity, parseProcessStat, processStartTime, readProcessStat, sessionLeader } from "../src/os/process-identity.js";

// One parser of /proc/<pid>/stat serves the lock's owner check (start time), the terminal holder
// (session id), the hook's client process and the nearest agent (name and parent).
const Parse = suite("parseProcessStat");

/** A stat line as proc(5) lays it out: 52 fields, the name in parentheses. */
const statLine = (name: string, state = "S") => {
  const fields = [String(4711), `(${name})`, state, "812", "4711", "900", "34817", "4711"];
  while (fields.length < 21) fields.push(String(fields.length));
  fields.push("88213");
  while (fields.length < 52) fields.push("0");
  return `${fields.join(" ")}\n`;
};

Parse("should read name, state, parent, session and start time from a plain line", () => {
  assert.equal(parseProcessStat(statLine("bash")), { name: "bash", state: "S", ppid: 812, session: 900, start: 88213 });
});

Parse("should split the fields after the last ')' when the name holds spaces and parentheses", () => {
  for (const name of ["Web Content", "a) S 1 2 3 (b", ") )", "(sd-pam)", "x)"]) {
    assert.equal(parseProcessStat(statLine(name, "Z")), { name, state: "Z", ppid: 812, session: 900, start: 88213 }, name);
  }
});

Parse("should give NaN for the numbers a short line lacks", () => {
  const stat = parseProcessStat("12 (cut) R 1");
  assert.is(stat.name, "cut");
  assert.is(stat.ppid, 1);
  assert.ok(Number.isNaN(stat.session));
  assert.ok(Number.isNaN(stat.start));
});

Parse.run();

const Read = suite("readProcessStat");
const linux = existsSync("/proc/self/stat");

Read("should read this very process: its parent is process.ppid", () => {
  if (!linux) return;
  const stat = readProcessStat(process.pid);
  assert.ok(stat);
  assert.is(stat.ppid, process.ppid);
  assert.is(stat.state, "R");
  assert.equal(readProcessStat("self")?.ppid, process.ppid);
  assert.is(sessionLeader(), stat.session > 0 ? stat.session : undefined);
  assert.is(processStartTime(process.pid), stat.start);
  assert.ok(Number.isInteger(stat.start) && stat.start > 0);
});

Read("should give undefined for a process that does not exist", () => {
  // Above the kernel's pid_max (at most 2^22), so no process can have it.
  assert.is(readProcessStat(2 ** 30), undefined);
  assert.is(processStartTime(2 ** 30), undefined);
});

Read("should name the machine in a lock record as Node's os.hostname() does", () => {
  // Another version, or another tool, on this machine judges the record's host by that name.
  assert.is(ownMachineIdentity().host, hostname());
});

Read.run();
