// A client run as a person runs it: interactive, on a pseudo-terminal. Node has no pty of its own,
// and a prebuilt node-pty is one more native dependency; python3's `pty` module (on every Linux
// and macOS that has python3) relays between the terminal and plain pipes instead. Keys are
// written to the relay's stdin, and the screen is the terminal's output with the escape
// sequences taken out (enough to find a word on it, not a faithful rendering).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";

const RELAY = `
import os, pty, select, sys, fcntl, termios, struct
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
sys.stderr.write("pid %d\\n" % pid)
sys.stderr.flush()
inputs = [fd, 0]
while True:
    ready = select.select(inputs, [], [])[0]
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if 0 in ready:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            inputs.remove(0)
status = os.waitpid(pid, 0)[1]
sys.exit(os.waitstatus_to_exitcode(status))
`;

/** Whether a pty can be had here (python3 with its pty module); the tests that need one say so and skip otherwise. */
export function hasTerminal(): boolean {
  return spawnSync("python3", ["-c", "import pty, termios, fcntl"], { stdio: "ignore" }).status === 0;
}

export interface Terminal {
  /** Everything the client has drawn so far, escape sequences removed. */
  screen(): string;
  /** Types text (no Enter), and lets the client draw it. */
  type(text: string): Promise<void>;
  /** Lets the client finish drawing: until its output has been quiet a moment (at most 5 s). */
  settle(): Promise<void>;
  /** Presses keys: "\r" is Enter. */
  press(keys: string): void;
  /** Ends the client as a closed terminal would (SIGTERM, then SIGKILL to its process group). */
  close(): Promise<void>;
}

export function startTerminal(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Terminal {
  const relay: ChildProcess = spawn("python3", ["-c", RELAY, command, ...args], {
    cwd: options.cwd,
    env: { TERM: "xterm-256color", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let clientPid: number | undefined;
  let lastOutputAt = Date.now();
  relay.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    lastOutputAt = Date.now();
  });
  relay.stderr?.on("data", (chunk: Buffer) => {
    const pid = /^pid (\d+)/m.exec(chunk.toString("utf8"));
    if (pid) clientPid = Number(pid[1]);
  });
  const settle = (since: number) =>
    new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const now = Date.now();
        if ((lastOutputAt > since && now - lastOutputAt > 400) || now - since > 5_000) {
          clearInterval(tick);
          resolve();
        }
      }, 50);
    });
  const exited = new Promise<void>((resolve) => relay.on("close", () => resolve()));
  const screen = () =>
    output
      .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "")
      .replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, " ")
      .replace(/\x1b[()][0-9A-Za-z]|\x1b[=>78]/g, "");
  return {
    screen,
    async type(text) {
      relay.stdin?.write(text);
      // Pacing, not a measurement: an Enter pressed in the same instant as a pasted line can be
      // taken as part of the paste.
      await settle(Date.now());
    },
    settle: () => settle(Date.now() - 1),
    press(keys) {
      relay.stdin?.write(keys);
    },
    async close() {
      const signal = (name: NodeJS.Signals) => {
        try {
          if (clientPid !== undefined) process.kill(-clientPid, name); // the client leads its own session (pty.fork)
        } catch {
          // already gone
        }
      };
      signal("SIGTERM");
      const late = setTimeout(() => {
        signal("SIGKILL");
        relay.kill("SIGKILL");
      }, 15_000);
      await exited;
      clearTimeout(late);
      signal("SIGKILL"); // hooks or shells it left behind
    },
  };
}

/**
 * Polls until `check` holds (returns a truthy value), at most `ms`; throws `what` with the screen's
 * tail otherwise (and, with CLAIMS_E2E_SCREEN=path, writes the whole screen there).
 */
export async function waitFor<T>(check: () => T | undefined | false, what: string, terminal?: Terminal, ms = 90_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) {
      if (terminal && process.env.CLAIMS_E2E_SCREEN) writeFileSync(process.env.CLAIMS_E2E_SCREEN, terminal.screen());
      throw new Error(`gave up waiting for ${what}${terminal ? `; the screen ends with:\n${terminal.screen().slice(-2000)}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
