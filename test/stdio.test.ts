// The CLI writes its output with write(2) instead of Node's stdout stream (src/os/stdio.ts). What a
// script reading that output depends on: every byte arrives, also through a non-blocking pipe
// that fills up; and a reader that went away costs nothing but the output, never the answer.
// Node gives its children blocking pipes, so the pipes here are made by a small Python parent.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, claims, cleanEnv, iso, sandbox, type Sandbox } from "./helpers.js";

// The pipe sizes come from Linux's F_GETPIPE_SZ and FIONREAD.
const CAN_RUN = process.platform === "linux" && spawnSync("python3", ["-c", "0"]).status === 0;

// mode "full": stdout is a non-blocking pipe the parent reads only once it is full (the child
// has then met EAGAIN); "full-then-closed": the parent closes it once it is full, unread;
// "closed": stdout is a pipe whose read end is closed from the start (EPIPE).
const PARENT = `
import fcntl, json, os, struct, subprocess, sys, termios, time
mode, cmd = sys.argv[1], sys.argv[2:]
r, w = os.pipe()
if mode == "closed":
    os.close(r)
else:
    os.set_blocking(w, False)
child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE)
os.close(w)
out, filled = b"", False
if mode.startswith("full"):
    capacity = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ
    while child.poll() is None and not filled:
        filled = struct.unpack("i", fcntl.ioctl(r, termios.FIONREAD, b"    "))[0] >= capacity
        time.sleep(0.01)
    if mode == "full-then-closed":
        os.close(r)
    else:
        while chunk := os.read(r, 1 << 16):
            out += chunk
try:
    err, code = child.communicate(timeout=60)[1], child.returncode
except subprocess.TimeoutExpired:  # a hang is the failure; the limit only ends the test
    child.kill()
    err, code = child.communicate()[1], "still running after 60 s"
print(json.dumps({"code": code, "stdout": out.decode(), "stderr": err.decode(), "filled": filled}))
`;

function throughPipe(mode: "full" | "full-then-closed" | "closed", args: string[]): { code: number | string; stdout: string; stderr: string; filled: boolean } {
  const result = spawnSync("python3", ["-c", PARENT, mode, process.execPath, BIN, ...args], { env: cleanEnv(), encoding: "utf8", maxBuffer: 1 << 26 });
  assert.is(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

const Stdio = suite<{ box: Sandbox }>("output through pipes");
Stdio.before.each((context) => {
  context.box = sandbox();
});
Stdio.after.each((context) => context.box.cleanup());

const test = CAN_RUN ? Stdio : Stdio.skip;

/**
 * 1500 claims, written by hand as another tool would: a status of them is far more than a pipe
 * holds. (A take of 1500 targets would cost seconds of fsyncs per test, and is not under test here.)
 */
function manyClaims(dir: string): string[] {
  const names = Array.from({ length: 1500 }, (_, i) => `shared-name-${i}`);
  const at = iso(Math.floor(Date.now() / 1000) * 1000);
  mkdirSync(dir, { mode: 0o700 });
  for (const name of names) writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ target: name, holder: "a", purpose: "fill the pipe", taken_at: at, heartbeat_at: at })}\n`);
  return names;
}

test("should deliver all of a large output through a non-blocking pipe that fills up", ({ box }) => {
  const names = manyClaims(box.dir);
  const shown = throughPipe("full", ["status", "--json", "--dir", box.dir, "--holder", "a"]);
  assert.ok(shown.filled, "the output never filled the pipe, so this test did not reach EAGAIN");
  assert.is(shown.code, 0, shown.stderr);
  const status = JSON.parse(shown.stdout);
  assert.equal(status.claims.map((claim: { target: string }) => claim.target).sort(), [...names].sort());
});

// A hot verb (dist/hot-<verb>.cjs) exits the moment its call ran (bin/claims.js): never while Node's
// stream still holds output a slow reader has not taken yet.
test("should deliver all of a hot verb's large output through a non-blocking pipe that fills up", ({ box }) => {
  const names = Array.from({ length: 3000 }, (_, i) => `name:a-name-long-enough-to-fill-the-pipe-sooner-${i}`);
  const checked = throughPipe("full", ["check", "--json", "--dir", box.dir, "--holder", "a", ...names]);
  assert.ok(checked.filled, "the output never filled the pipe, so this test did not reach EAGAIN");
  assert.is(checked.code, 0, checked.stderr);
  assert.equal([...JSON.parse(checked.stdout).allowed].sort(), names.map((name) => name.slice("name:".length)).sort());
});

test("should finish quietly when the reader of a full non-blocking pipe goes away", ({ box }) => {
  manyClaims(box.dir);
  const shown = throughPipe("full-then-closed", ["status", "--json", "--dir", box.dir, "--holder", "a"]);
  assert.ok(shown.filled, "the output never filled the pipe, so this test did not reach EAGAIN");
  assert.is(shown.code, 0);
  assert.not.match(shown.stderr, /Error|at /);
});

test("should keep the exit code and print no stack trace when the reader has gone", ({ box }) => {
  const taken = throughPipe("closed", ["take", "shared-config", "--dir", box.dir, "--holder", "a"]);
  assert.is(taken.code, 0);
  assert.not.match(taken.stderr, /Error|at /);
  const refused = throughPipe("closed", ["take", "shared-config", "--dir", box.dir, "--holder", "b"]);
  assert.is(refused.code, 3);
  assert.not.match(refused.stderr, /Error|at /);
  const held = JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout);
  assert.equal(held.claims.map((claim: { holder: string }) => claim.holder), ["a"]);
});

test("should stop following the log once its reader has gone", ({ box }) => {
  assert.is(claims(["take", "shared-config", "--dir", box.dir, "--holder", "a"]).code, 0);
  const followed = throughPipe("closed", ["log", "--follow", "--dir", box.dir]);
  assert.is(followed.code, 0);
  assert.not.match(followed.stderr, /Error|at /);
});

test("should end --help quietly when the reader has gone (claims mcp --help | head -1)", () => {
  for (const verb of ["mcp", "take", "hook"]) {
    const piped = spawnSync("bash", ["-c", `"${process.execPath}" "${BIN}" ${verb} --help | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: "utf8", env: cleanEnv() });
    assert.is(piped.stdout.trim(), "0", verb);
    assert.not.match(piped.stderr, /EPIPE|Unhandled/, verb);
  }
});


// What a call loads to print: the hot verbs write with write(2) and decide colour by fstat, so a
// script's `>/dev/null` or a pipe never builds Node's stdout stream (node:stream and, for a pipe,
// node:net: milliseconds of every call). Node's own list of the modules it loaded says so.
const Loads = suite<{ box: Sandbox }>("what printing loads");
Loads.before.each((context) => {
  context.box = sandbox();
});
Loads.after.each((context) => context.box.cleanup());

function modulesLoaded(box: Sandbox, args: string[], to: "/dev/null" | "pipe"): { code: number | null; modules: string[] } {
  const report = join(box.root, "loaded.txt");
  const preload = join(box.root, "report-loaded.cjs");
  writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join("\\n")));\n`);
  const out = to === "pipe" ? "pipe" : openSync("/dev/null", "w");
  try {
    const result = spawnSync(process.execPath, ["--require", preload, BIN, ...args], { env: cleanEnv(), stdio: ["ignore", out, out] });
    return { code: result.status, modules: readFileSync(report, "utf8").split("\n") };
  } finally {
    if (typeof out === "number") closeSync(out);
  }
}

const streams = (modules: string[]) => modules.filter((name) => /^NativeModule (stream|net|tty)$/.test(name));
/**
 * Node modules a hot call does without (docs/BENCHMARKS.md): each costs a share of every agent hook.
 * perf_hooks comes with the first touch of the global `performance` (about 1 ms; src/os/lease.ts).
 */
const heavy = (modules: string[]) => modules.filter((name) => /^NativeModule (os|crypto|child_process|stream|net|tty|perf_hooks)$/.test(name));

Loads("should take, release, check and run the hook without node:os, node:crypto, child_process or perf_hooks", ({ box }) => {
  const file = join(box.project, "a.ts");
  writeFileSync(file, "");
  const flags = ["--dir", box.dir, "--holder", "a"];
  for (const args of [["take", file, ...flags], ["check", file, ...flags], ["release", file, ...flags]]) {
    const call = modulesLoaded(box, args, "pipe");
    assert.is(call.code, 0, args[0]);
    assert.equal(heavy(call.modules), [], args[0]);
  }
});

/** What a call asks require() for by name (Module._load's requests: bin/claims.js's, its bundle's). */
function requested(box: Sandbox, args: string[], input = ""): { code: number | null; requests: string[] } {
  const report = join(box.root, "requested.txt");
  const preload = join(box.root, "report-requested.cjs");
  writeFileSync(
    preload,
    `const Module = module.constructor, load = Module._load, asked = new Set();\n` +
      `Module._load = function (request) { asked.add(request); return load.apply(this, arguments); };\n` +
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, [...asked].join("\\n")));\n`,
  );
  const result = spawnSync(process.execPath, ["--require", preload, BIN, ...args], { env: cleanEnv(), input, stdio: ["pipe", "ignore", "ignore"] });
  return { code: result.status, requests: readFileSync(report, "utf8").split("\n") };
}

Loads("should take, release, check and run the hook without requiring node:module", ({ box }) => {
  // Node builds an ES-module facade of a built-in module the first time user code requires it:
  // for node:module about 0.15 ms of every call, only for createRequire (scripts/bundle.mjs).
  const file = join(box.project, "a.ts");
  writeFileSync(file, "");
  const flags = ["--dir", box.dir, "--holder", "a"];
  const payload = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", cwd: box.project, tool_name: "Edit", tool_input: { file_path: file, old_string: "", new_string: "x" } });
  for (const [args, input] of [[["take", file, ...flags]], [["check", file, ...flags]], [["release", file, ...flags]], [["hook", "claude", "--dir", box.dir], payload]] as Array<[string[], string?]>) {
    const call = requested(box, args, input);
    assert.is(call.code, 0, args[0]);
    assert.ok(call.requests.includes("node:fs"), `the report lists what ${args[0]} required`);
    assert.equal(call.requests.filter((request) => request === "module" || request === "node:module"), [], args[0]);
  }
});

for (const to of ["/dev/null", "pipe"] as const) {
  Loads(`should answer check and a refused take without building an output stream (output to ${to})`, ({ box }) => {
    const file = join(box.project, "a.ts");
    writeFileSync(file, "");
    const flags = ["--dir", box.dir];
    assert.is(claims(["take", file, "--holder", "a", ...flags]).code, 0);
    const checked = modulesLoaded(box, ["check", file, "--holder", "a", ...flags], to);
    assert.is(checked.code, 0);
    assert.ok(checked.modules.includes("NativeModule fs"), "the report lists Node's modules");
    assert.equal(streams(checked.modules), []);
    const refused = modulesLoaded(box, ["take", file, "--holder", "b", ...flags], to);
    assert.is(refused.code, 3);
    assert.equal(streams(refused.modules), []);
  });
}

Stdio.run();
Loads.run();
