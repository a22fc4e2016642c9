// docs/PROTOCOL.md promises that a shell script can take and release a claim the CLI respects.
// Its two scripts are run here, as written in the doc, against the CLI.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readSnapshot } from "../src/os/files.js";
import { TEMP_PREFIX } from "../src/os/files.js";
import { ALIASES_DIRECTORY } from "../src/protocol/aliases.js";
import { UNRESOLVED_DIRECTORY } from "../src/protocol/unresolved.js";
import { HOOK_FILE_DEBRIS_AGE_MS, HOOK_FILE_PREFIXES } from "../src/protocol/hook-files.js";
import { IDEMPOTENCY_PREFIX, IDEMPOTENCY_TTL_MS } from "../src/protocol/idempotency.js";
import { LOCK_PREFIX, lockName, versionOf } from "../src/protocol/lock.js";
import { HELD_PREFIX, NOTICE_PREFIX } from "../src/protocol/store.js";
import { claims, entries, ROOT, sandbox, type Sandbox } from "./helpers.js";

const scripts = [...readFileSync(join(ROOT, "docs", "PROTOCOL.md"), "utf8").matchAll(/```bash\n([\s\S]*?)```/g)].map(
  (match) => match[1] as string,
);

const Shell = suite<{ box: Sandbox; run: (script: number, args: string[]) => number }>("the shell recipes in docs/PROTOCOL.md");
Shell.before.each((context) => {
  context.box = sandbox();
  const paths = scripts.map((text, index) => {
    const path = join(context.box.root, `script-${index}.sh`);
    writeFileSync(path, text);
    return path;
  });
  context.run = (script, args) =>
    spawnSync("bash", [paths[script] as string, ...args], { env: { ...process.env, CLAIMS_DIR: context.box.dir }, stdio: "ignore" })
      .status ?? -1;
});
Shell.after.each((context) => context.box.cleanup());

Shell("should contain a take and a release script", () => {
  assert.is(scripts.length, 2);
});

Shell("should take a claim that the CLI then refuses to another holder", ({ box, run }) => {
  assert.is(run(0, ["shared-config", "script-holder", "from a shell"]), 0);
  const refused = claims(["take", "shared-config", "--dir", box.dir, "--holder", "cli", "--json"]);
  assert.is(refused.code, 3);
  assert.is(JSON.parse(refused.stdout).refused[0].holder, "script-holder");
  assert.is(JSON.parse(refused.stdout).refused[0].purpose, "from a shell");
});

Shell("should be refused by a claim the CLI holds", ({ box, run }) => {
  claims(["take", "shared-config", "--dir", box.dir, "--holder", "cli"]);
  assert.is(run(0, ["shared-config", "script-holder", "x"]), 3);
  assert.is(JSON.parse(readFileSync(join(box.dir, "shared-config.json"), "utf8")).holder, "cli");
});

Shell("should be refused by a shared claim the CLI holds on the name", ({ box, run }) => {
  claims(["take", "shared-config", "--shared", "--dir", box.dir, "--holder", "cli"]);
  assert.is(run(0, ["shared-config", "script-holder", "x"]), 3);
  assert.not.ok(existsSync(join(box.dir, "shared-config.json")));
});

Shell("should leave no temp file or lock behind", ({ box, run }) => {
  run(0, ["a", "script-holder", "x"]);
  run(0, ["a", "other", "x"]);
  run(1, ["a", "script-holder"]);
  assert.equal(entries(box.dir), []);
});

Shell("should release its own claim and leave another holder's alone", ({ box, run }) => {
  claims(["take", "theirs", "--dir", box.dir, "--holder", "cli"]);
  assert.is(run(1, ["theirs", "script-holder"]), 4);
  assert.ok(existsSync(join(box.dir, "theirs.json")));
  run(0, ["mine", "script-holder", "x"]);
  assert.is(run(1, ["mine", "script-holder"]), 0);
  assert.not.ok(existsSync(join(box.dir, "mine.json")));
  assert.is(claims(["take", "mine", "--dir", box.dir, "--holder", "cli"]).code, 0);
});

Shell("should release a claim the CLI took and renewed", ({ box, run }) => {
  claims(["take", "x", "--dir", box.dir, "--holder", "same"]);
  claims(["beat", "x", "--dir", box.dir, "--holder", "same"]);
  assert.is(run(1, ["x", "same"]), 0);
  assert.equal(JSON.parse(claims(["status", "--dir", box.dir, "--json"]).stdout).claims, []);
});

Shell("should leave nothing a sweep keeps when killed midway (SIGKILL at its sync)", ({ box }) => {
  // A sync that kills the script calling it: the take dies holding the take lock, its claim's temp
  // file written; the release dies holding the claim lock, the claim removed.
  const bin = join(box.root, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "sync"), "#!/bin/sh\nkill -9 $PPID\n");
  chmodSync(join(bin, "sync"), 0o755);
  const killed = (script: number, args: string[]) =>
    spawnSync("bash", [join(box.root, `script-${script}.sh`), ...args], { env: { ...process.env, CLAIMS_DIR: box.dir, PATH: `${bin}:${process.env.PATH}` }, stdio: "ignore" }).signal;
  assert.is(killed(0, ["a", "script-holder", "x"]), "SIGKILL");
  assert.ok(entries(box.dir).some((name) => name.startsWith(TEMP_PREFIX)), "the take left its temp files");
  claims(["sweep", "--dir", box.dir]);
  assert.equal(entries(box.dir), []);
  assert.is(claims(["take", "b", "--dir", box.dir, "--holder", "cli"]).code, 0);
  assert.is(killed(1, ["b", "cli"]), "SIGKILL");
  assert.ok(entries(box.dir).some((name) => name.startsWith(TEMP_PREFIX)), "the release left its temp file");
  claims(["sweep", "--dir", box.dir]);
  assert.equal(entries(box.dir), []);
});

Shell("should compute the same lock name as the CLI for the version it read", ({ box }) => {
  claims(["take", "x", "--dir", box.dir, "--holder", "same"]);
  const release = scripts[1] as string;
  const versionLine = release.split("\n").find((line) => line.startsWith("version() {")) as string;
  const keyLine = /key=\$\(printf .*? \| cut -c1-32\)/.exec(release)?.[0] as string;
  const shell = `dir=${box.dir} file=x.json\n${versionLine}\nv=$(version) ${keyLine}\necho ".lock-$key-1"`;
  const fromShell = spawnSync("bash", ["-c", shell], { encoding: "utf8" }).stdout.trim();
  const version = versionOf(readSnapshot(join(box.dir, "x.json"))) as string;
  assert.is(fromShell, lockName("x.json", version, 1));
});

Shell.run();

const PROTOCOL = readFileSync(join(ROOT, "docs", "PROTOCOL.md"), "utf8");
const ARCHITECTURE = readFileSync(join(ROOT, "docs", "ARCHITECTURE.md"), "utf8");

/** The text from `start` up to the next `## ` heading (or the end). */
function sectionOf(text: string, start: string): string {
  const from = text.indexOf(start);
  assert.ok(from !== -1, `no ${JSON.stringify(start)}`);
  const next = text.indexOf("\n## ", from + start.length);
  return text.slice(from, next === -1 ? undefined : next);
}

const Sweep = suite("sweep's steps in docs/PROTOCOL.md section 8");

Sweep("should name every kind of file sweep removes, with the ages the code uses", () => {
  const steps = sectionOf(PROTOCOL, "**sweep `[--dry-run]`**");
  for (const prefix of [TEMP_PREFIX, LOCK_PREFIX, IDEMPOTENCY_PREFIX, NOTICE_PREFIX, HELD_PREFIX, `${ALIASES_DIRECTORY}/`, `${UNRESOLVED_DIRECTORY}/`, ...HOOK_FILE_PREFIXES]) {
    assert.ok(steps.includes(`\`${prefix}`), `the sweep steps do not name ${prefix}`);
  }
  assert.is(IDEMPOTENCY_TTL_MS, 7 * 24 * 3600_000);
  assert.match(steps, /older than 7 days/);
  assert.is(HOOK_FILE_DEBRIS_AGE_MS, 24 * 3600_000);
  assert.match(steps, /older than a day/);
});

Sweep.run();

const Files = suite("the file table of docs/ARCHITECTURE.md");

Files("should list every file of src/protocol, src/targets and src/os", () => {
  const table = sectionOf(ARCHITECTURE, "## Which file implements which part of PROTOCOL.md");
  for (const folder of ["protocol", "targets", "os"]) {
    for (const file of readdirSync(join(ROOT, "src", folder)).filter((name) => name.endsWith(".ts"))) {
      assert.ok(table.includes(`\`${folder}/${file}\``), `docs/ARCHITECTURE.md's file table lacks ${folder}/${file}`);
    }
  }
});

Files("should name only files that exist", () => {
  // Paths with a folder: under src/ unless they name another top-level folder. Build output is not checked.
  const named = [...ARCHITECTURE.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.(?:ts|js|mjs|cjs))`/g)].map((match) => match[1] as string);
  assert.ok(named.length > 20, "the paths are found");
  for (const path of named.filter((name) => !name.startsWith("dist/"))) {
    const full = /^(src|test|scripts|bin)\//.test(path) ? join(ROOT, path) : join(ROOT, "src", path);
    assert.ok(existsSync(full), `docs/ARCHITECTURE.md names ${path}, which does not exist`);
  }
});

Files.run();
