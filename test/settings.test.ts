import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BadInputError } from "../src/os/errors.js";
import { resolveHolder, resolveSettings } from "../src/protocol/settings.js";
import { BIN, claims, cleanEnv, ROOT, sandbox, type Sandbox } from "./helpers.js";

const Dir = suite<{ box: Sandbox }>("claims directory and TTL resolution");
Dir.before.each((context) => {
  context.box = sandbox();
});
Dir.after.each((context) => context.box.cleanup());

Dir("should default to $XDG_STATE_HOME/claims, else ~/.local/state/claims", ({ box }) => {
  const env = { HOME: box.root };
  assert.is(resolveSettings({ cwd: box.project, env }).dir, join(box.root, ".local", "state", "claims"));
  assert.is(resolveSettings({ cwd: box.project, env: { ...env, XDG_STATE_HOME: "/xdg" } }).dir, "/xdg/claims");
});

Dir("should prefer --dir over CLAIMS_DIR over the config over the default", ({ box }) => {
  writeFileSync(join(box.root, ".claims"), JSON.stringify({ dir: "from-config" }));
  const env = { HOME: box.root, CLAIMS_DIR: "/from-env" };
  assert.is(resolveSettings({ cwd: box.project, env, dir: "/from-flag" }).dir, "/from-flag");
  assert.is(resolveSettings({ cwd: box.project, env }).dir, "/from-env");
  assert.is(resolveSettings({ cwd: box.project, env: { HOME: box.root } }).dir, join(box.root, "from-config"));
});

Dir("should read the nearest .claims up from cwd, with comments, dir relative to the file", ({ box }) => {
  mkdirSync(join(box.project, "deep", "er"), { recursive: true });
  writeFileSync(join(box.project, ".claims"), '{\n  // shared by the whole project\n  "dir": "../team-claims", "ttl": 600\n}\n');
  const settings = resolveSettings({ cwd: join(box.project, "deep", "er"), env: { HOME: box.root } });
  assert.is(settings.dir, join(box.root, "team-claims"));
  assert.is(settings.ttl, 600);
  assert.is(settings.ttlExplicit, true);
});

Dir("should accept .claims.example copied as it is, in a project or the home directory, without moving the claims directory", ({ box }) => {
  const example = readFileSync(join(ROOT, ".claims.example"), "utf8");
  for (const where of [box.project, box.root]) {
    writeFileSync(join(where, ".claims"), example);
    const settings = resolveSettings({ cwd: box.project, env: { HOME: box.root } });
    assert.is(settings.dir, join(box.root, ".local", "state", "claims"));
    assert.is(settings.ttl, 1800);
  }
});

Dir("should expand ~ in --dir, CLAIMS_DIR and the config's dir", ({ box }) => {
  const env = { HOME: box.root };
  assert.is(resolveSettings({ cwd: box.project, env, dir: "~/a" }).dir, join(box.root, "a"));
  assert.is(resolveSettings({ cwd: box.project, env: { ...env, CLAIMS_DIR: "~/b" } }).dir, join(box.root, "b"));
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "~/c" }));
  assert.is(resolveSettings({ cwd: box.project, env }).dir, join(box.root, "c"));
});

Dir("should refuse a relative CLAIMS_DIR, which would be another directory in every working directory, and accept a relative --dir", ({ box }) => {
  const env = { HOME: box.root, CLAIMS_DIR: "team-claims" };
  assert.throws(() => resolveSettings({ cwd: box.project, env }), (error: Error) => error instanceof BadInputError && /CLAIMS_DIR is a relative path \("team-claims"\).*absolute path/.test(error.message));
  assert.is(resolveSettings({ cwd: box.project, env, dir: "team-claims" }).dir, join(box.project, "team-claims"));
  for (const verb of [["take", "x"], ["check", "./a.ts"], ["status"]]) {
    const run = claims([...verb, "--holder", "a"], { cwd: box.project, env: { CLAIMS_DIR: "team-claims" } });
    assert.is(run.code, 2, verb.join(" "));
    assert.match(run.stderr, /^claims: CLAIMS_DIR is a relative path \("team-claims"\)[^\n]*\.\n$/);
    assert.not.ok(existsSync(join(box.project, "team-claims")), "nothing made where the relative path led");
  }
});

Dir("should read an empty or relative HOME as the account's own home, not a claims directory in every working directory", ({ box }) => {
  // Two sessions in two directories with `HOME=` (or `HOME=h`) each had a claims directory of its own, and both were granted one file.
  const own = join(userInfo().homedir, ".local", "state", "claims");
  for (const HOME of ["", "rel-home"]) {
    for (const cwd of [box.project, box.root]) {
      const env = { HOME };
      assert.is(resolveSettings({ cwd, env }).dir, own, `HOME=${HOME} in ${cwd}`);
      assert.is(resolveSettings({ cwd, env, dir: "~/x" }).dir, join(userInfo().homedir, "x"), "~ is that home too");
    }
  }
  // Read-only: nothing made where the relative home led.
  writeFileSync(join(box.project, "a.ts"), "x\n");
  const run = claims(["check", "a.ts", "--holder", "a"], { cwd: box.project, env: { HOME: "" } });
  assert.is(run.code, 0, run.stderr);
  assert.not.ok(existsSync(join(box.project, ".local")), "no claims directory under the working directory");
});

Dir("should refuse a relative --dir for the hook and claims mcp, which run in each session's own directory", ({ box }) => {
  // Two sessions in two projects, one hook command line: with `--dir rel` each would claim in a directory of its own.
  const file = join(box.root, "shared.txt");
  writeFileSync(file, "x\n");
  assert.is(claims(["take", file, "--dir", box.dir, "--holder", "other"]).code, 0);
  for (const project of ["p1", "p2"]) mkdirSync(join(box.root, project));
  const payload = (cwd: string) => JSON.stringify({ session_id: `s-${cwd}`, cwd: join(box.root, cwd), hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: file, content: "y" } });
  for (const project of ["p1", "p2"]) {
    const run = spawnSync(process.execPath, [BIN, "hook", "claude", "--dir", "rel-claims"], { cwd: join(box.root, project), input: payload(project), env: cleanEnv({ HOME: box.root }), encoding: "utf8" });
    assert.match(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, /^deny$/, run.stdout);
    assert.match(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason, /^claims cannot check this write: --dir of claims hook claude is a relative path \("rel-claims"\)/, "refused, not let through");
    assert.not.ok(existsSync(join(box.root, project, "rel-claims")), "no claims directory made where the relative path led");
  }
  const server = claims(["mcp", "--dir", "rel-claims"], { cwd: box.project });
  assert.is(server.code, 2);
  assert.match(server.stderr, /^claims: --dir of claims mcp is a relative path \("rel-claims"\)[^\n]*absolute path\.\n$/);
  assert.is(claims(["take", "x", "--dir", "rel-claims", "--holder", "a"], { cwd: box.project }).code, 0, "a verb run once, here, may take it relative to here");
});

Dir("should skip a directory named .claims: it is not a config", ({ box }) => {
  mkdirSync(join(box.project, ".claims"));
  assert.is(resolveSettings({ cwd: box.project, env: { HOME: box.root } }).configPath, undefined);
});

Dir("should refuse a .claims symlink that leads nowhere, naming where it leads, and follow one that leads to a config", ({ box }) => {
  // A shared config missing from this checkout: skipped, this session would claim in the default
  // directory while the others claim where the config says.
  symlinkSync("../team/claims.json", join(box.project, ".claims"));
  const env = { HOME: box.root };
  const taken = claims(["take", "./x.ts", "--holder", "a"], { cwd: box.project, env });
  assert.is(taken.code, 2, taken.stdout);
  assert.is(taken.stderr, `claims: Config ${join(box.project, ".claims")} is a symlink to ../team/claims.json, which is not there; restore that file, or remove the link (every session where it leads to the file claims in the directory it names).\n`);
  assert.not.ok(existsSync(join(box.root, ".local", "state", "claims")), "nothing claimed in the default directory");
  mkdirSync(join(box.root, "team"));
  writeFileSync(join(box.root, "team", "claims.json"), JSON.stringify({ dir: "../team/claims" }));
  assert.is(resolveSettings({ cwd: box.project, env }).dir, join(box.root, "team", "claims"), "a link that leads to a config is followed");
});

Dir("should refuse a config that is not JSON, has an unknown key or a bad value", ({ box }) => {
  const configs: Array<[string, RegExp]> = [
    ["{ dir: ", /not valid JSON/],
    ['{ "dri": "x" }', /unknown key "dri"/],
    ['{ "ttl": "soon" }', /"ttl" .* must be a number/],
    ['{ "ttl": 0 }', /must be whole seconds from 1 to 2592000/],
    ["[]", /must be a JSON object/],
  ];
  for (const [text, message] of configs) {
    writeFileSync(join(box.project, ".claims"), text);
    try {
      resolveSettings({ cwd: box.project, env: { HOME: box.root } });
      assert.unreachable(text);
    } catch (error) {
      assert.instance(error, BadInputError);
      assert.match((error as Error).message, message);
    }
  }
});

Dir("should accept TTLs of whole seconds from 1 to 30 days only", ({ box }) => {
  const at = (ttl: string) => resolveSettings({ cwd: box.project, env: { HOME: box.root }, ttl });
  assert.is(at("1").ttl, 1);
  assert.is(at("2592000").ttl, 2592000);
  for (const bad of ["0", "-5", "1.5", "abc", "", "2592001", "1e3"]) {
    assert.throws(() => at(bad), (error: Error) => error instanceof BadInputError, bad);
  }
});

Dir("should refuse a TTL with spaces or leading zeros, from the option or CLAIMS_TTL, naming the plain spelling", ({ box }) => {
  const sources: Array<[string, (ttl: string) => unknown]> = [
    ["ttl", (ttl) => resolveSettings({ cwd: box.project, env: { HOME: box.root }, ttl })],
    ["CLAIMS_TTL", (ttl) => resolveSettings({ cwd: box.project, env: { HOME: box.root, CLAIMS_TTL: ttl } })],
  ];
  for (const [source, at] of sources) {
    for (const [bad, meant] of [[" 10", 10], ["10 ", 10], ["\t600\n", 600], ["010", 10], ["0600", 600]] as const) {
      assert.throws(
        () => at(bad),
        (error: Error) => error instanceof BadInputError && error.message === `${source} must be plain digits, without spaces or leading zeros (${meant} for ${meant} seconds); got ${JSON.stringify(bad)}.`,
        `${source} ${JSON.stringify(bad)}`,
      );
    }
    assert.throws(() => at("00"), /must be whole seconds from 1 to 2592000 \(30 days\); got "00"\./, `${source} "00"`);
  }
});

Dir.run();

const Holder = suite("holder resolution");

Holder("should prefer --holder, then CLAIMS_HOLDER, then the agent's session id", () => {
  const env = { CLAIMS_HOLDER: "from-env", CLAUDE_CODE_SESSION_ID: "abc-123" };
  assert.is(resolveHolder("from-flag", env), "from-flag");
  assert.is(resolveHolder(undefined, env), "from-env");
  assert.is(resolveHolder(undefined, { CLAUDE_CODE_SESSION_ID: "abc-123" }), "claude-abc-123");
});

Holder("should give two agent sessions two different holders", () => {
  assert.is.not(resolveHolder(undefined, { CLAUDE_CODE_SESSION_ID: "one" }), resolveHolder(undefined, { CLAUDE_CODE_SESSION_ID: "two" }));
});

Holder("should refuse a holder with control characters", () => {
  assert.throws(() => resolveHolder("a\nb", {}), /printable/);
});

Holder.run();
