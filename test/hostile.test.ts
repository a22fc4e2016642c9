// A hostile-input corpus: every input gets a clear exit 2 or a documented handled state, never a
// stack trace, never a write outside the claims directory, and never costs a claim already held.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, cleanEnv, ROOT, sandbox, type Sandbox } from "./helpers.js";

interface Case {
  name: string;
  args: string[];
  /** Exit codes that are the documented answer. */
  expect: number[];
  /** Prepares the sandbox (after the kept claim exists); may return env additions. */
  setup?: (box: Sandbox) => Record<string, string> | void;
  /** Run as nobody (uid 65534), where permissions apply. */
  asNobody?: boolean;
  stdin?: string;
}

const long = (n: number) => "t".repeat(n);
const claimJson = (fields: object) => `${JSON.stringify({ target: "odd", holder: "x", purpose: "", taken_at: "2026-08-14T21:02:11Z", heartbeat_at: "2026-08-14T21:02:11Z", ...fields })}\n`;
const plant = (name: string, text: string) => (box: Sandbox) => {
  writeFileSync(join(box.dir, name), text);
};

const CASES: Case[] = [
  // targets
  { name: "path traversal in a path", args: ["take", "../../../../../etc/passwd", "--holder", "h"], expect: [0] },
  { name: "path traversal spelled as a name", args: ["take", "..%2F..%2Fetc", "--holder", "h"], expect: [0] },
  { name: "an absolute path outside any project", args: ["take", "/etc/shadow", "--holder", "h"], expect: [0] },
  { name: "the root directory without --force (it would refuse every write)", args: ["take", "/", "--holder", "h"], expect: [2] },
  { name: "the root directory with --force (covers every path, no name)", args: ["take", "/", "--force", "--holder", "h"], expect: [0] },
  { name: "a lone dot", args: ["take", ".", "--holder", "h"], expect: [0] },
  { name: "a lone dot-dot", args: ["take", "..", "--holder", "h"], expect: [0] },
  { name: "an empty target", args: ["take", "", "--holder", "h"], expect: [2] },
  { name: "a blank target", args: ["take", "   ", "--holder", "h"], expect: [2] },
  { name: "a bell character", args: ["take", "a\u0007b", "--holder", "h"], expect: [2] },
  { name: "an escape sequence", args: ["take", "a\u001b[31mb", "--holder", "h"], expect: [2] },
  { name: "a newline", args: ["take", "a\nb", "--holder", "h"], expect: [2] },
  { name: "a tab", args: ["take", "a\tb", "--holder", "h"], expect: [2] },
  { name: "a DEL character", args: ["take", "a\u007fb", "--holder", "h"], expect: [2] },
  { name: "a carriage return", args: ["take", "a\rb", "--holder", "h"], expect: [2] },
  { name: "a 4096-byte target", args: ["take", long(4096), "--holder", "h"], expect: [2] },
  { name: "a 1025-byte target", args: ["take", long(1025), "--holder", "h"], expect: [2] },
  { name: "a 1024-byte name (long, hashed file name)", args: ["take", long(1024), "--holder", "h"], expect: [0] },
  { name: "a 1024-byte path of multibyte characters", args: ["take", `./${"é".repeat(511)}`, "--holder", "h"], expect: [0, 2] },
  { name: "a name component longer than the filesystem allows", args: ["take", `./${long(300)}/x`, "--holder", "h"], expect: [2] },
  { name: "NFC spelling of a held NFD name", args: ["take", "cafe\u0301", "--holder", "other"], expect: [3], setup: () => undefined },
  { name: "a case variant of a held name (case-sensitive)", args: ["take", "KEPT", "--holder", "h"], expect: [0] },
  { name: "a glob bomb of globstars", args: ["take", `./${"**/".repeat(60)}*.ts`, "--holder", "h"], expect: [0, 3] },
  { name: "a brace explosion", args: ["take", `./${"{a,b,c,d}".repeat(12)}`, "--holder", "h"], expect: [0, 3] },
  { name: "an unclosed bracket", args: ["take", "./src/[abc", "--holder", "h"], expect: [0, 2, 3] },
  { name: "a negated glob", args: ["take", "!src/*.ts", "--holder", "h"], expect: [2] },
  { name: "a glob ending in a slash", args: ["take", "src/*/", "--holder", "h"], expect: [2] },
  { name: "a glob with .. after its magic", args: ["take", "src/*/../../x", "--holder", "h"], expect: [2] },
  { name: "a symbol on a glob", args: ["take", "src/*.ts#f", "--holder", "h"], expect: [2] },
  { name: "an empty symbol", args: ["take", "./a.ts#", "--holder", "h"], expect: [2] },
  { name: "a symbol that is not an identifier", args: ["take", "./a.ts#a.b", "--holder", "h"], expect: [2] },
  { name: "a symbol in a file with no grammar", args: ["take", "./notes.txt#x", "--holder", "h"], expect: [2], setup: (box) => writeFileSync(join(box.project, "notes.txt"), "x") },
  { name: "~user", args: ["take", "~root/.bashrc", "--holder", "h"], expect: [2] },
  {
    name: "a symlink loop",
    args: ["take", "./loop/x", "--holder", "h"],
    expect: [2],
    setup: (box) => {
      symlinkSync(join(box.project, "loop2"), join(box.project, "loop"));
      symlinkSync(join(box.project, "loop"), join(box.project, "loop2"));
    },
  },
  // settings
  { name: "a zero TTL", args: ["take", "a", "--holder", "h", "--ttl", "0"], expect: [2] },
  { name: "a negative TTL", args: ["take", "a", "--holder", "h", "--ttl", "-1"], expect: [2] },
  { name: "a fractional TTL", args: ["take", "a", "--holder", "h", "--ttl", "1.5"], expect: [2] },
  { name: "a TTL in exponent form", args: ["take", "a", "--holder", "h", "--ttl", "1e3"], expect: [2] },
  { name: "a TTL over 30 days", args: ["take", "a", "--holder", "h", "--ttl", "2592001"], expect: [2] },
  { name: "a holder with a newline", args: ["take", "a", "--holder", "a\nb"], expect: [2] },
  { name: "a 300-character holder", args: ["take", "a", "--holder", long(300)], expect: [2] },
  { name: "a huge purpose", args: ["take", "a", "--holder", "h", "--purpose", long(100_000)], expect: [2] },
  { name: "an empty idempotency key", args: ["take", "a", "--holder", "h", "--idempotency-key", ""], expect: [2] },
  { name: "a token that is not a number", args: ["beat", "a", "--holder", "h", "--token", "x1"], expect: [2] },
  { name: "a negative wait", args: ["take", "a", "--holder", "h", "--wait", "-1"], expect: [2] },
  { name: "a wait of a day", args: ["take", "a", "--holder", "h", "--wait", "86400"], expect: [2] },
  { name: "a config that is not JSON", args: ["take", "a", "--holder", "h"], expect: [2], setup: (box) => writeFileSync(join(box.project, ".claims"), "{ nope") },
  // the claims directory
  { name: "a claims directory that is a file", args: ["take", "a", "--holder", "h"], expect: [2], setup: (box) => ({ CLAIMS_DIR: join(box.dir, "kept.json") }) },
  { name: "a claims directory under /proc", args: ["take", "a", "--holder", "h"], expect: [2], setup: () => ({ CLAIMS_DIR: "/proc/claims-hostile" }) },
  { name: "a read-only claims directory", args: ["take", "a", "--holder", "h"], expect: [2], asNobody: true, setup: (box) => chmodSync(box.dir, 0o555) },
  {
    name: "a claims directory owned by someone else",
    args: ["status"],
    expect: [0, 2],
    asNobody: true,
    setup: (box) => chmodSync(box.dir, 0o700),
  },
  // what stands at a claim name
  { name: "a claim file that is a symlink to a file outside", args: ["take", "odd", "--holder", "h"], expect: [3], setup: (box) => symlinkSync(join(box.root, "outside.txt"), join(box.dir, "odd.json")) },
  { name: "a directory where a claim file belongs", args: ["take", "odd", "--holder", "h"], expect: [2], setup: (box) => mkdirSync(join(box.dir, "odd.json")) },
  { name: "a fifo where a claim file belongs", args: ["take", "odd", "--holder", "h"], expect: [3], setup: (box) => void spawnSync("mkfifo", [join(box.dir, "odd.json")]) },
  {
    name: "a fifo where the log belongs",
    args: ["take", "odd", "--holder", "h"],
    expect: [0],
    setup: (box) => {
      rmSync(join(box.dir, "log.jsonl"));
      spawnSync("mkfifo", [join(box.dir, "log.jsonl")]);
    },
  },
  {
    name: "a symlink where the log belongs",
    args: ["take", "odd", "--holder", "h"],
    expect: [0],
    setup: (box) => {
      rmSync(join(box.dir, "log.jsonl"));
      symlinkSync(join(box.root, "outside.txt"), join(box.dir, "log.jsonl"));
    },
  },
  // claim files with bad content
  // (no claim writer makes one: another program's file, bad input to take, never overwritten)
  { name: "a claim file that is a JSON array", args: ["take", "odd", "--holder", "h"], expect: [2], setup: plant("odd.json", "[1,2]") },
  { name: "a claim file that is a JSON string", args: ["status"], expect: [0], setup: plant("odd.json", '"claim"') },
  { name: "a claim file with a numeric holder", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", claimJson({ holder: 7 })) },
  { name: "a claim file with a null purpose", args: ["status"], expect: [0], setup: plant("odd.json", claimJson({ purpose: null })) },
  { name: "a claim file with a date that is not ISO", args: ["status"], expect: [0], setup: plant("odd.json", claimJson({ heartbeat_at: "yesterday" })) },
  { name: "a claim file with a negative token", args: ["status"], expect: [0], setup: plant("odd.json", claimJson({ token: -3 })) },
  { name: "a claim file with extra fields", args: ["take", "odd", "--holder", "x"], expect: [0], setup: plant("odd.json", claimJson({ holder: "x", color: "blue", nested: { a: [1] } })) },
  { name: "a claim file from 1970, last written then", args: ["take", "odd", "--holder", "h"], expect: [0], setup: (box) => {
    plant("odd.json", claimJson({ taken_at: "1970-01-01T00:00:00Z", heartbeat_at: "1970-01-01T00:00:00Z" }))(box);
    utimesSync(join(box.dir, "odd.json"), 0, 0);
  } },
  // Its heartbeat reads stale, its file was written a moment ago: a clock far behind, held (docs/PROTOCOL.md 5).
  { name: "a claim file from 1970 written a moment ago", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", claimJson({ taken_at: "1970-01-01T00:00:00Z", heartbeat_at: "1970-01-01T00:00:00Z" })) },
  { name: "a claim file from the year 9999", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", claimJson({ heartbeat_at: "9999-12-31T23:59:59Z" })) },
  {
    name: "an old claim file from the year 9999",
    args: ["take", "odd", "--holder", "h"],
    expect: [0],
    setup: (box) => {
      writeFileSync(join(box.dir, "odd.json"), claimJson({ heartbeat_at: "9999-12-31T23:59:59Z" }));
      const old = Date.now() / 1000 - 7200;
      utimesSync(join(box.dir, "odd.json"), old, old);
    },
  },
  { name: "a claim file of 100 KiB", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", `{"pad":"${long(100 * 1024)}"}`) },
  { name: "a claim file whose target is another name", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", claimJson({ target: "kept" })) },
  { name: "a torn claim file", args: ["take", "odd", "--holder", "h"], expect: [3], setup: plant("odd.json", '{"target":"odd","hol') },
  { name: "an empty claim file", args: ["sweep"], expect: [0], setup: plant("odd.json", "") },
  // hook payloads
  { name: "a hook payload that is not JSON", args: ["hook", "claude"], expect: [0], stdin: "rm -rf /" },
  { name: "a hook payload with a relative file path", args: ["hook", "claude"], expect: [0], stdin: JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Write", cwd: "/tmp", tool_input: { file_path: "../../etc/passwd" } }) },
  { name: "a hook payload with a huge session id", args: ["hook", "claude"], expect: [0], stdin: JSON.stringify({ session_id: long(5000), hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "/tmp/x" } }) },
];

const Hostile = suite<{ box: Sandbox }>(`hostile input (${CASES.length} cases)`);
Hostile.before.each((context) => {
  context.box = sandbox();
});
Hostile.after.each((context) => context.box.cleanup());

/**
 * nobody may not be able to read this checkout (a clone in a private temp directory, as CI makes),
 * so it runs a copy of the CLI (the shim and its package.json, the bundle, the package's
 * package.json) placed in its own sandbox.
 */
function nobodyCopy(box: Sandbox): string {
  const app = join(box.root, "app");
  mkdirSync(join(app, "bin"), { recursive: true });
  mkdirSync(join(app, "dist"), { recursive: true });
  copyFileSync(BIN, join(app, "bin", "claims.js"));
  copyFileSync(join(ROOT, "bin", "package.json"), join(app, "bin", "package.json"));
  for (const bundle of ["cli.cjs", "hot-take.cjs", "hot-beat.cjs", "hot-release.cjs", "hot-check.cjs", "hot-hook.cjs"]) copyFileSync(join(ROOT, "dist", bundle), join(app, "dist", bundle));
  copyFileSync(join(ROOT, "package.json"), join(app, "package.json"));
  for (const path of [app, join(app, "bin"), join(app, "dist")]) chmodSync(path, 0o755);
  return join(app, "bin", "claims.js");
}

function outsideSnapshot(box: Sandbox): string {
  const list = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (path === box.dir) return [];
      return entry.isDirectory() && !entry.isSymbolicLink() ? [path, ...list(path)] : [path];
    });
  return list(box.root)
    .sort()
    .map((path) => {
      try {
        return `${path}:${readFileSync(path, "utf8").length}`;
      } catch {
        return path;
      }
    })
    .join("\n");
}

for (const testCase of CASES) {
  Hostile(`should answer ${testCase.name} with exit ${testCase.expect.join(" or ")}, no stack trace, nothing outside written, nothing held lost`, ({ box }) => {
    mkdirSync(box.dir, { recursive: true });
    writeFileSync(join(box.root, "outside.txt"), "precious\n");
    const keep = spawnSync(process.execPath, [BIN, "take", "kept", "cafe\u0301", "--holder", "owner", "--purpose", "precious", "--dir", box.dir], { env: cleanEnv(), encoding: "utf8" });
    assert.is(keep.status, 0);
    const kept = readFileSync(join(box.dir, "kept.json"), "utf8");
    const extraEnv = testCase.setup?.(box) ?? {};
    if (testCase.asNobody) {
      // nobody may enter the sandbox (its own), but not write the root-owned claims directory.
      chownSync(box.root, 65534, 65534);
      chmodSync(box.root, 0o755);
    }
    const cli = testCase.asNobody ? nobodyCopy(box) : BIN;
    const before = outsideSnapshot(box);
    const env = cleanEnv({ CLAIMS_DIR: box.dir, ...extraEnv });
    const command = testCase.asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, cli] : [process.execPath, cli];
    const result = spawnSync(command[0] as string, [...command.slice(1), ...testCase.args], {
      cwd: box.project,
      env,
      input: testCase.stdin ?? "",
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.is(result.signal, null, `${testCase.name}: killed (${result.signal}), e.g. hung`);
    assert.ok(testCase.expect.includes(result.status as number), `${testCase.name}: exit ${result.status}\n${result.stderr}`);
    assert.not.match(result.stderr, /\n\s+at .+:\d+:\d+/, `${testCase.name}: a stack trace`);
    if (result.status === 2) assert.match(result.stderr, /^claims: .+\n$/, `${testCase.name}: not one sentence`);
    assert.is(outsideSnapshot(box), before, `${testCase.name}: something outside the claims directory changed`);
    assert.is(readFileSync(join(box.root, "outside.txt"), "utf8"), "precious\n");
    assert.is(readFileSync(join(box.dir, "kept.json"), "utf8"), kept, `${testCase.name}: a held claim changed`);
  });
}

Hostile("should hold at least 50 cases", () => {
  assert.ok(CASES.length >= 50, `${CASES.length}`);
});

Hostile("should answer exit 2 and one sentence when the current directory was removed", ({ box }) => {
  const gone = join(box.root, "gone");
  mkdirSync(gone);
  for (const verb of [["status"], ["take", "x"], ["check", "a.ts"]]) {
    const result = spawnSync("sh", ["-c", `cd "$1" && rmdir "$1" && exec "$0" "$2" ${verb.join(" ")} --dir "$3"`, process.execPath, gone, BIN, box.dir], { env: cleanEnv(), encoding: "utf8" });
    assert.equal([result.status, result.stderr], [2, "claims: The current directory no longer exists; cd to a directory that does and run the command again.\n"], verb.join(" "));
    mkdirSync(gone);
  }
});

Hostile("should show a claim file's own \"__proto__\" field as a field, never as the claim's mode, owner or staleness", ({ box }) => {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const file = join(box.dir, "proto.json");
  mkdirSync(box.dir, { recursive: true });
  writeFileSync(file, `{"target":"proto","holder":"other","purpose":"p","taken_at":"${now}","heartbeat_at":"${now}","__proto__":{"mode":"shared","mine":true,"stale":true}}\n`);
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, "--dir", box.dir, "--holder", "me"], { cwd: ROOT, env: cleanEnv(), encoding: "utf8" });
  const json = run(["status", "--json"]);
  const entry = (JSON.parse(json.stdout) as { claims: Array<Record<string, unknown>> }).claims.find((claim) => claim.target === "proto");
  assert.ok(entry, json.stdout);
  assert.equal([entry?.mode, entry?.mine, entry?.stale], [undefined, false, false]);
  assert.equal(entry?.["__proto__"], { mode: "shared", mine: true, stale: true }, "kept as the field it is");
  const human = run(["status"]);
  assert.match(human.stdout, /^proto\s+fresh for/m);
  assert.not.match(human.stdout, /shared|yours|stale/);
});

Hostile.run();
