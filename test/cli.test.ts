// End to end: bin/claims.js spawned as a user or a script would run it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { entries, BIN, claims, cleanEnv, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox };
const setup = (context: Context) => {
  context.box = sandbox();
};

const Cli = suite<Context>("the claims CLI");
Cli.before.each(setup);
Cli.after.each((context) => context.box.cleanup());

Cli("should grant, refuse with exit 3 naming holder and purpose, and release", ({ box }) => {
  const a = ["--dir", box.dir, "--holder", "session-a41"];
  const b = ["--dir", box.dir, "--holder", "session-b7"];
  assert.is(claims(["take", "shared-config", "--purpose", "align the lint rule", ...a]).code, 0);
  const refused = claims(["take", "shared-config", ...b]);
  assert.is(refused.code, 3);
  assert.match(refused.stdout, /REFUSED shared-config: held by session-a41 for "align the lint rule" \(heartbeat \d+s ago\)/);
  assert.match(refused.stdout, /Nothing was taken/);
  assert.is(claims(["release", "shared-config", ...a]).code, 0);
  assert.is(claims(["take", "shared-config", ...b]).code, 0);
});

Cli("should print the JSON shapes of the contract", ({ box }) => {
  const a = ["--dir", box.dir, "--holder", "a", "--json"];
  const taken = JSON.parse(claims(["take", "x", "--purpose", "p", ...a]).stdout);
  assert.equal(Object.keys(taken).sort(), ["granted", "holder", "refused"]);
  assert.is(taken.granted[0].target, "x");
  assert.is(taken.granted[0].holder, "a");
  const refused = claims(["take", "x", "--dir", box.dir, "--holder", "b", "--json"]);
  assert.is(refused.code, 3);
  const body = JSON.parse(refused.stdout);
  assert.equal(Object.keys(body.refused[0]).sort(), ["heartbeat_age_seconds", "heartbeat_at", "holder", "purpose", "target"]);
  const shown = JSON.parse(claims(["status", ...a]).stdout);
  assert.is(shown.claims[0].stale, false);
  const beat = JSON.parse(claims(["beat", ...a]).stdout);
  assert.equal([beat.renewed, beat.lost], [["x"], []]);
  const released = JSON.parse(claims(["release", ...a]).stdout);
  assert.equal([released.released, released.lost], [["x"], []]);
  assert.equal(JSON.parse(claims(["sweep", "--dir", box.dir, "--json"]).stdout).removed, []);
});

Cli("should exit 4 when beating or releasing a claim another holder has", ({ box }) => {
  claims(["take", "x", "--dir", box.dir, "--holder", "a"]);
  const beat = claims(["beat", "x", "--dir", box.dir, "--holder", "b"]);
  assert.is(beat.code, 4);
  assert.match(beat.stdout, /LOST x: held by a/);
  const release = claims(["release", "x", "--dir", box.dir, "--holder", "b", "--json"]);
  assert.is(release.code, 4);
  assert.equal(JSON.parse(release.stdout).lost, ["x"]);
  assert.is(JSON.parse(release.stdout).lost_to[0].now_held_by.holder, "a");
});

Cli("should say what the holder does hold when a release names a target it does not (a typo leaves the claim meant held)", ({ box }) => {
  const at = { cwd: box.project };
  assert.is(claims(["take", "./alpha.ts", "--dir", box.dir, "--holder", "h"], at).code, 0);
  const typo = claims(["release", "./alpah.ts", "--dir", box.dir, "--holder", "h"], at);
  assert.is(typo.code, 0);
  assert.match(typo.stdout, /alpah\.ts was not held; nothing to do\nh still holds .*\/alpha\.ts: name the one you meant, or release them all with: claims release --dir .* --holder h\n/);
  assert.equal(JSON.parse(claims(["release", "./alpah.ts", "--dir", box.dir, "--holder", "h", "--json"], at).stdout).still_held, [join(box.project, "alpha.ts")]);
  assert.is(claims(["release", "--dir", box.dir, "--holder", "h"], at).stdout, `released ${join(box.project, "alpha.ts")}\n`);
  assert.not.match(claims(["release", "./alpah.ts", "--dir", box.dir, "--holder", "h"], at).stdout, /still holds/, "nothing held: nothing said");
});

Cli("should tell a holder who lost a name claim a take command that names it again (name:gen.txt)", ({ box }) => {
  const as = (holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], { cwd: box.root });
  assert.is(as("a", "take", "name:gen.txt").code, 0);
  assert.is(as("a", "take", "plain-name").code, 0);
  // Made two hours stale, then swept: nobody holds them; the beat reports them lost, with the command to take them again.
  const old = new Date(Date.now() - 2 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  for (const name of entries(box.dir).filter((entry) => entry.endsWith(".json") && !entry.startsWith("."))) {
    const path = join(box.dir, name);
    writeClaimFile(box.dir, name, { ...JSON.parse(readFileSync(path, "utf8")), taken_at: old, heartbeat_at: old });
  }
  assert.equal(JSON.parse(claims(["sweep", "--dir", box.dir, "--json"]).stdout).removed.length, 2);
  const beat = as("a", "beat");
  assert.is(beat.code, 4, beat.stdout);
  const advised = [...beat.stdout.matchAll(/take it again with: (claims take .*)$/gm)].map((match) => match[1]).sort();
  assert.equal(advised, [`claims take name:gen.txt --dir ${box.dir} --holder a`, `claims take plain-name --dir ${box.dir} --holder a`], "for the same holder, in the same directory");
  assert.is(as("a", "take", "name:gen.txt").code, 0, "the advised command works");
});

Cli("should make check exit 0 for free or own paths and 3 for another holder's", ({ box }) => {
  writeFileSync(join(box.project, "a.ts"), "");
  claims(["take", join(box.project, "a.ts"), "--dir", box.dir, "--holder", "hook-session"]);
  assert.is(claims(["check", "a.ts", "--dir", box.dir, "--holder", "hook-session"], { cwd: box.project }).code, 0);
  const other = claims(["check", "a.ts", "--dir", box.dir, "--holder", "me"], { cwd: box.project });
  assert.is(other.code, 3);
  assert.match(other.stdout, /REFUSED .*a\.ts: held by hook-session/);
  assert.is(claims(["check", "b.ts", "--dir", box.dir, "--holder", "me"], { cwd: box.project }).code, 0);
});

Cli("should let `claims take package.json` in a project collide with a hook's absolute path", ({ box }) => {
  writeFileSync(join(box.project, "package.json"), "{}");
  assert.is(claims(["take", join(box.project, "package.json"), "--dir", box.dir, "--holder", "hook"]).code, 0);
  const result = claims(["take", "package.json", "--dir", box.dir, "--holder", "shell"], { cwd: box.project });
  assert.is(result.code, 3);
});

Cli("should take its holder from the agent's session id", ({ box }) => {
  const env = { CLAUDE_CODE_SESSION_ID: "0f3c" };
  const taken = JSON.parse(claims(["take", "x", "--dir", box.dir, "--json"], { env }).stdout);
  assert.is(taken.holder, "claude-0f3c");
});

Cli("should find its settings in the environment and in a .claims config", ({ box }) => {
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "store-from-config", ttl: 90 }));
  const taken = JSON.parse(claims(["take", "x", "--json"], { cwd: box.project, env: { CLAIMS_HOLDER: "cfg" } }).stdout);
  assert.is(taken.granted[0].ttl, 90);
  assert.equal(entries(join(box.project, "store-from-config")), ["x.json"]);
});

Cli("should check and show a word that reads like a file, which no claim names, as the file it will be", ({ box }) => {
  // An agent's hook claimed ./gen.txt before creating it; a script then checks "gen.txt".
  const at = { cwd: box.project };
  const taken = JSON.parse(claims(["take", "./gen.txt", "--json", "--dir", box.dir, "--holder", "claude-s9"], at).stdout);
  const checked = claims(["check", "gen.txt", "--dir", box.dir, "--holder", "script"], at);
  assert.is(checked.code, 3);
  assert.match(checked.stdout, /held by claude-s9/);
  assert.match(checked.stderr, /no claim names gen\.txt and no such file exists here, so it was checked as the file \.\/gen\.txt will be/);
  const shown = JSON.parse(claims(["status", "gen.txt", "--json", "--dir", box.dir], at).stdout);
  assert.equal(shown.claims.map((claim: { holder: string }) => claim.holder), ["claude-s9"]);
  assert.equal(shown.free, []);
  // The holder itself may write it, also when checking with its fencing token.
  const own = ["--dir", box.dir, "--holder", "claude-s9", "--token", String(taken.granted[0].token)];
  assert.is(claims(["check", "gen.txt", ...own], at).code, 0);
  assert.is(claims(["check", "other.txt", "--dir", box.dir, "--holder", "script"], at).code, 0);
});

Cli("should beat, hand over and release a word that reads like a file as the file ./word its holder claimed", ({ box }) => {
  const at = { cwd: box.project };
  const as = (holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], at);
  assert.is(as("a", "take", "./gen.txt").code, 0);
  assert.is(as("a", "beat", "gen.txt").code, 0, "renewed, not LOST");
  const handed = as("a", "handover", "gen.txt", "--to", "b");
  assert.is(handed.code, 0, handed.stderr);
  assert.is(as("c", "check", "./gen.txt").code, 3);
  const released = as("b", "release", "gen.txt");
  assert.is(released.code, 0);
  assert.not.match(released.stdout, /not held/);
  assert.is(as("c", "check", "./gen.txt").code, 0, "the file's claim is gone");
  // Held by nobody: the advice names both readings, each a take that works.
  const nobody = as("a", "handover", "gen.txt", "--to", "b");
  assert.is(nobody.code, 4);
  assert.match(nobody.stderr, /claims take \.\/gen\.txt \(the file\) or claims take name:gen\.txt \(the name\)/);
});

Cli("should check a file-looking word a claim names as that name and as the file it will be, and name: as the name alone", ({ box }) => {
  const at = { cwd: box.project };
  assert.is(claims(["take", "name:deploy.lock", "--dir", box.dir, "--holder", "a"], at).code, 0);
  assert.is(claims(["check", "deploy.lock", "--dir", box.dir, "--holder", "a"], at).code, 0, "the holder of the name, nobody on the file");
  assert.is(claims(["check", "deploy.lock", "--dir", box.dir, "--holder", "c"], at).code, 3);
  // A script that checks a word before writing the file of that name must hear of the file's holder,
  // also when it holds the name itself.
  assert.is(claims(["take", "./", "--dir", box.dir, "--holder", "b"], at).code, 0);
  const word = claims(["check", "deploy.lock", "--dir", box.dir, "--holder", "a"], at);
  assert.is(word.code, 3, word.stdout);
  assert.match(word.stdout, /deploy\.lock: covered by the claim on .*\/, held by b/);
  assert.match(word.stderr, /deploy\.lock was also checked as the file \.\/deploy\.lock it will be; check name:deploy\.lock to ask about the name alone/);
  assert.is(claims(["check", "name:deploy.lock", "--dir", box.dir, "--holder", "a"], at).code, 0, "the name alone");
  // A word that does not read like a file is a name, as scripts use one for a lock.
  assert.is(claims(["take", "migrate-db", "--dir", box.dir, "--holder", "a"], at).code, 0);
  assert.is(claims(["check", "migrate-db", "--dir", box.dir, "--holder", "a"], at).code, 0);
});

Cli("should check a shared holder's write as shared only where its own shared claim covers the target", ({ box }) => {
  const at = { cwd: box.project };
  mkdirSync(join(box.project, "sub"));
  assert.is(claims(["take", "./sub/", "--shared", "--dir", box.dir, "--holder", "a"], at).code, 0);
  assert.is(claims(["take", "./sub/x.ts", "--shared", "--dir", box.dir, "--holder", "b"], at).code, 0);
  assert.is(claims(["check", "./sub/x.ts", "--dir", box.dir, "--holder", "b"], at).code, 0, "b shares x.ts with a");
  const whole = claims(["check", "./sub/", "--dir", box.dir, "--holder", "b"], at);
  assert.is(whole.code, 3, "b holds no share of the rest of sub/");
  assert.match(whole.stdout, /shared and held by a/);
});

Cli("should note when CLAIMS_HOLDER stands in for an agent session's own holder, which its hooks use", ({ box }) => {
  const inSession = claims(["take", "deploy-lock", "--dir", box.dir], { env: { CLAIMS_HOLDER: "session-a", CLAUDE_CODE_SESSION_ID: "s2" } });
  assert.is(inSession.code, 0);
  assert.match(inSession.stderr, /claims: note: CLAIMS_HOLDER=session-a stands in for this agent session's own holder, claude-s2, which its hooks claim as; unset CLAIMS_HOLDER where agents run/);
  const plain = claims(["take", "deploy-lock", "--dir", box.dir], { env: { CLAIMS_HOLDER: "session-a" } });
  assert.is(plain.stderr, "", "a terminal's own CLAIMS_HOLDER is no override");
  assert.is(claims(["take", "deploy-lock", "--dir", box.dir, "--holder", "session-a"], { env: { CLAIMS_HOLDER: "session-a", CLAUDE_CODE_SESSION_ID: "s2" } }).stderr, "", "nor is --holder");
});

Cli("should refuse a name: that would read as a path when given back, which nothing could release", ({ box }) => {
  for (const [word, suggested] of [["with/slash", "with-slash"], [".env", "env"], ["a#b", "a-b"], ["src/*.ts", "src-.ts"]]) {
    const result = claims(["take", `name:${word}`, "--dir", box.dir, "--holder", "a"]);
    assert.is(result.code, 2, word);
    assert.is(result.stderr, `claims: name:${word} would read as a path wherever it is given back (release, status); choose a name without / # * ? [ ] { } that does not start with . or ~, such as ${suggested}.\n`);
  }
  assert.not.ok(existsSync(box.dir), "nothing was taken");
  assert.is(claims(["take", "name:gen.txt", "--dir", box.dir, "--holder", "a"]).code, 0, "a file-looking name is fine: it is a name while no such file exists");
  assert.is(claims(["release", "gen.txt", "--dir", box.dir, "--holder", "a"]).stdout, "released gen.txt\n");
});

Cli("should refuse to guess whether a file-looking word with no such file is a name or the file it will be", ({ box }) => {
  const at = { cwd: box.project };
  const ambiguous = claims(["take", "gen.txt", "--dir", box.dir, "--holder", "a"], at);
  assert.is(ambiguous.code, 2);
  assert.match(ambiguous.stderr, /gen\.txt reads like a file, but there is no such file here; write \.\/gen\.txt to claim the file it will be, or name:gen\.txt to claim the name\./);
  assert.not.ok(existsSync(box.dir), "nothing was taken, not even the directory created");
  // A file projects name without an extension reads like one too: as a name, it would never meet the agent's claim on the file.
  for (const word of ["Makefile", "Dockerfile", "LICENSE"]) {
    const result = claims(["take", word, "--dir", box.dir, "--holder", "a"], at);
    assert.is(result.code, 2, word);
    assert.match(result.stderr, new RegExp(`${word} reads like a file, but there is no such file here; write \\./${word}`));
  }
  assert.is(claims(["take", "deploy-lock", "--dir", box.dir, "--holder", "a"], at).code, 0, "a plain word is a name");
  assert.is(claims(["release", "deploy-lock", "--dir", box.dir, "--holder", "a"], at).code, 0);
  // The file it will be keeps refusing others once it is created: one file, one holder.
  assert.is(claims(["take", "./gen.txt", "--dir", box.dir, "--holder", "a"], at).code, 0);
  writeFileSync(join(box.project, "gen.txt"), "");
  assert.is(claims(["check", "gen.txt", "--dir", box.dir, "--holder", "b"], at).code, 3);
  assert.is(claims(["take", "gen.txt", "--dir", box.dir, "--holder", "b"], at).code, 3);
  // A name on purpose: name:gen.txt is the word, whatever the directory holds.
  const named = claims(["take", "name:gen.txt", "--json", "--dir", box.dir, "--holder", "c"], at);
  assert.is(named.code, 0);
  assert.equal([JSON.parse(named.stdout).granted[0].kind, JSON.parse(named.stdout).granted[0].target], ["name", "gen.txt"]);
  assert.is(claims(["take", "name:", "--dir", box.dir, "--holder", "c"], at).code, 2);
});

Cli("should refuse to guess whether a plain word naming nothing is a name or the file it will be once a claim names that file", ({ box }) => {
  const at = { cwd: box.project };
  const as = (holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], at);
  // (An MCP `claim` of the word `notes` with `creating` claims ./notes: granted the name beside it, a second session would think it holds "notes" too.)
  assert.is(as("a", "take", "./notes", "-p", "writing notes").code, 0);
  const ambiguous = as("b", "take", "notes");
  assert.is(ambiguous.code, 2);
  assert.is(ambiguous.stderr, "claims: notes names nothing here, but another session's claim names the file it will be; write ./notes to claim that file, or name:notes to claim the name.\n");
  assert.is(as("b", "take", "./notes").code, 3, "the file, as asked: a's");
  const checked = as("b", "check", "notes", "--json");
  assert.is(checked.code, 3, "check asks about the file it will be too");
  assert.is(JSON.parse(checked.stdout).refused[0].holder, "a");
  // A name on purpose, and the word once the name is claimed: the name.
  assert.is(as("b", "take", "name:notes").code, 0);
  assert.is(as("b", "take", "notes").code, 0, "renewed");
  assert.is(as("c", "take", "notes").code, 3, "the name, b's");
  assert.is(as("c", "take", "deploy-lock").code, 0, "a plain word no claim names as a file is a name");
  // The caller's own claim on the file is no other session's: its word is a name.
  assert.is(as("a", "take", "notes").code, 3, "b's name, met as a name");
  assert.is(as("d", "take", "./memo").code, 0);
  assert.is(as("d", "take", "memo").code, 0, "d's own ./memo");
});

Cli("should refuse to guess whether a directory-looking word with no such directory is a name or the directory it will be", ({ box }) => {
  const at = { cwd: box.project };
  const as = (holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], at);
  // A name would protect nothing: a hook judges build/out.js as a path, which never meets the name build.
  const ambiguous = as("NM", "take", "build", "-p", "regenerating build output");
  assert.is(ambiguous.code, 2);
  assert.is(ambiguous.stderr, "claims: build reads like a directory, but there is no such directory here; write ./build/ to claim the directory it will be, or name:build to claim the name.\n");
  assert.not.ok(existsSync(box.dir), "nothing was taken, not even the directory created");
  for (const word of ["dist", "out", "target", "coverage", "node_modules", "vendor", "venv", "__pycache__", "bin", "obj", "lib", "src", "docs", "test", "tests", "public", "assets", "tmp", "logs"]) {
    const result = as("a", "take", word);
    assert.is(result.code, 2, word);
    assert.match(result.stderr, new RegExp(`${word} reads like a directory, but there is no such directory here; write \\./${word}/ to claim`));
  }
  // The words scripts and the README take as names stay names.
  assert.is(as("a", "take", "shared-config", "deploy", "db-migrations", "migrate-db").code, 0);
  assert.is(as("a", "release").code, 0);
  // The directory it will be, as the refusal says: it refuses another's write under it, before and after it exists.
  const taken = JSON.parse(as("NM", "take", "./build/", "--json").stdout);
  assert.equal([taken.granted[0].kind, taken.granted[0].target], ["directory", `${box.project}/build/`]);
  const checked = as("u2", "check", "build");
  assert.is(checked.code, 3, "the word is checked as the directory it will be");
  assert.match(checked.stderr, /no claim names build and no such directory exists here, so it was checked as the directory \.\/build\/ will be/);
  assert.is(as("u2", "check", "./build/out.js").code, 3);
  assert.equal(JSON.parse(as("u2", "status", "build", "--json").stdout).claims.map((claim: { holder: string }) => claim.holder), ["NM"]);
  mkdirSync(join(box.project, "build"));
  assert.is(as("u2", "take", "build").code, 3, "a word naming an existing directory is that directory");
  assert.is(as("NM", "release", "build").stdout, `released ${box.project}/build/\n`);
  // Held by nobody, named as the word: the advice names both readings.
  rmSync(join(box.project, "build"), { recursive: true });
  const nobody = as("NM", "handover", "build", "--to", "u2");
  assert.is(nobody.code, 4);
  assert.match(nobody.stderr, /claims take \.\/build\/ \(the directory\) or claims take name:build \(the name\)/);
  // An existing directory is claimed as one, by the word alone; name:dist is the name on purpose.
  mkdirSync(join(box.project, "dist"));
  const dist = JSON.parse(as("u1", "take", "dist", "--json").stdout);
  assert.equal([dist.granted[0].kind, dist.granted[0].target], ["directory", `${box.project}/dist/`]);
  assert.is(as("u2", "take", "dist").code, 3);
  const named = JSON.parse(as("u3", "take", "name:tmp", "--json").stdout);
  assert.equal([named.granted[0].kind, named.granted[0].target], ["name", "tmp"]);
});

Cli("should let sharers of the file a file-looking word will be check it", ({ box }) => {
  const at = { cwd: box.project };
  for (const holder of ["a", "b"]) assert.is(claims(["take", "./gen.txt", "--shared", "--dir", box.dir, "--holder", holder], at).code, 0);
  assert.is(claims(["check", "gen.txt", "--dir", box.dir, "--holder", "a"], at).code, 0);
  assert.is(claims(["check", "gen.txt", "--dir", box.dir, "--holder", "c"], at).code, 3);
});

Cli("should print the fencing token on every kind of grant: a new claim, a renewal, a takeover", ({ box }) => {
  const a = ["--dir", box.dir, "--holder", "a"];
  assert.match(claims(["take", "x", ...a]).stdout, /^granted x \(token 1\)$/m);
  assert.match(claims(["take", "x", ...a]).stdout, /^renewed x \(token 1\) \(already yours; taken_at kept\)$/m);
  const old = "2020-01-01T00:00:00Z";
  writeClaimFile(box.dir, "y.json", { target: "y", holder: "gone", purpose: "p", taken_at: old, heartbeat_at: old });
  assert.match(claims(["take", "y", ...a]).stdout, /^took over y \(token \d+\) from a stale claim: held by gone/m);
  // An unreadable one taken over is told in the past, not as a refusal would tell it ("it counts as held until…").
  writeFileSync(join(box.dir, "z.json"), '{"target": "z", "hol');
  utimesSync(join(box.dir, "z.json"), new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
  assert.match(claims(["take", "z", ...a]).stdout, /^took over z \(token \d+\) from a stale claim: its claim file \S*z\.json could not be read \(the file is not valid JSON\), and was older than the TTL \(modified 1h ago\)$/m);
});

Cli("should name the --wait value as typed when it is not whole seconds", ({ box }) => {
  for (const value of ["1.5", "abc", "-3"]) {
    const result = claims(["take", "q", "--wait", value, "--dir", box.dir, "--holder", "a"]);
    assert.is(result.code, 2);
    assert.is(result.stderr, `claims: --wait must be whole seconds from 0 to 3600, e.g. --wait 120; got "${value}".\n`);
  }
  assert.match(claims(["take", "q", "--wait", "86400", "--dir", box.dir, "--holder", "a"]).stderr, /from 0 to 3600; got "86400"/);
});

Cli("should point a usage error at the help of the verb it was in", ({ box }) => {
  const unknown = claims(["log", "--ttl", "60", "--dir", box.dir]);
  assert.is(unknown.code, 2);
  assert.is(unknown.stderr, "claims: Unknown option '--ttl'; run claims log --help for usage.\n");
  assert.match(claims(["tkae", "x"]).stderr, /Unknown command 'tkae' \(Did you mean take\?\); run claims --help for usage/);
  const capitals = claims(["TAKE", "x", "--dir", box.dir]);
  assert.equal([capitals.code, capitals.stderr], [2, "claims: Unknown command 'TAKE' (Did you mean take?); run claims --help for usage.\n"], "caps lock on");
  assert.is(existsSync(box.dir), false, "nothing taken");
  assert.match(claims(["doctor", "--help"]).stdout, /Examples:\n {2}\$ claims doctor/);
  const early = claims(["--holder", "A", "take", "x", "--dir", box.dir]);
  assert.is(early.code, 2);
  assert.is(early.stderr, "claims: Unknown option '--holder' before the verb; options follow it, as in claims take x --holder A (run claims --help for the verbs).\n");
});

Cli("should say when the claims directory swept does not exist, so a mistyped cron line is not silent", ({ box }) => {
  const typo = join(box.root, "stroe");
  const swept = claims(["sweep", "--dir", typo]);
  assert.is(swept.code, 0);
  assert.is(swept.stderr, `claims: note: the claims directory ${typo} does not exist; nothing to sweep there\n`);
  assert.equal(JSON.parse(claims(["sweep", "--dir", typo, "--json"]).stdout).directory_missing, true);
  assert.not.ok(existsSync(typo), "not created either");
  assert.is(claims(["take", "x", "--dir", box.dir, "--holder", "a"]).code, 0);
  assert.is(claims(["sweep", "--dir", box.dir]).stderr, "", "an existing one: no note");
});

Cli("should say when the claims directory beat, release or log found nothing in does not exist, so a mistyped --dir is not silent", ({ box }) => {
  const typo = join(box.root, "stroe");
  const held = "claims: note: the claims directory " + typo + " does not exist, so nothing is held there; check the path given by --dir, CLAIMS_DIR or .claims\n";
  for (const args of [["beat"], ["release"], ["release", "x"]]) {
    const result = claims([...args, "--dir", typo, "--holder", "a"]);
    assert.is(result.code, 0, args.join(" "));
    assert.is(result.stderr, held, args.join(" "));
  }
  const lost = claims(["beat", "x", "--holder", "a"], { env: { CLAIMS_DIR: typo } });
  assert.is(lost.code, 4, "a named target is still reported lost");
  assert.is(lost.stderr, held);
  const json = JSON.parse(claims(["release", "--dir", typo, "--holder", "a", "--json"]).stdout);
  assert.equal([json.directory_missing, json.dir], [true, typo]);
  const logged = claims(["log", "--dir", typo]);
  assert.is(logged.code, 0);
  assert.is(logged.stderr, `claims: note: the claims directory ${typo} does not exist (yet); nothing was recorded there\n`);
  assert.equal(JSON.parse(claims(["log", "--dir", typo, "--json"]).stdout), { entries: [], directory_missing: true, dir: typo });
  assert.not.ok(existsSync(typo), "not created either");
  // An existing directory, where the holder holds nothing: no note.
  assert.is(claims(["take", "x", "--dir", box.dir, "--holder", "a"]).code, 0);
  for (const args of [["beat"], ["release"], ["release"], ["log"]]) assert.is(claims([...args, "--dir", box.dir, "--holder", "a"]).stderr, "", args.join(" "));
});

Cli("should stay quiet when beat and release find nothing in the default claims directory, untouched until a first take", ({ box }) => {
  const env = { HOME: box.root }; // ~/.local/state/claims does not exist
  for (const args of [["beat"], ["release"], ["release", "x"]]) {
    const result = claims([...args, "--holder", "a"], { cwd: box.project, env });
    assert.is(result.code, 0, args.join(" "));
    assert.is(result.stderr, "", args.join(" "));
    assert.not.match(result.stdout, /directory/);
  }
  assert.not.ok(existsSync(join(box.root, ".local")));
});

Cli("should advise on the file, not on a holder, when only an unreadable claim file is in the way", ({ box }) => {
  mkdirSync(box.dir, { recursive: true });
  writeFileSync(join(box.dir, "x.json"), '{\n  "target": "x",\n  "hol'); // a claim torn by a crash
  const refused = claims(["take", "x", "--dir", box.dir, "--holder", "a"]);
  assert.is(refused.code, 3);
  assert.match(refused.stdout, /REFUSED x: its claim file \S+ cannot be read/);
  assert.match(refused.stdout, /Look at the file \(claims status --dir .* lists it\), or let claims sweep --dir .* remove it/);
  assert.not.match(refused.stdout, /Reconcile with the holder/);
});

Cli("should name the unreadable claim file in the way, and its claims directory in the commands it suggests", ({ box }) => {
  mkdirSync(box.dir, { recursive: true });
  writeFileSync(join(box.dir, "x.json"), '{\n  "target": "x",\n  "hol'); // a claim torn by a crash
  // From the default directory's point of view (CLAIMS_DIR, no --dir typed), a bare claims status would not read it either way.
  const refused = claims(["take", "x", "--holder", "a"], { env: { CLAIMS_DIR: box.dir } });
  assert.is(refused.code, 3);
  assert.match(refused.stdout, new RegExp(`^REFUSED x: its claim file ${join(box.dir, "x.json")} cannot be read \\(the file is not valid JSON\\)`, "m"));
  assert.match(refused.stdout, new RegExp(`^Nothing was taken\\. Look at the file \\(claims status --dir ${box.dir} lists it\\), or let claims sweep --dir ${box.dir} remove it once older than the TTL;`, "m"));
  assert.is(JSON.parse(claims(["take", "x", "--holder", "a", "--json"], { env: { CLAIMS_DIR: box.dir } }).stdout).refused[0].file, join(box.dir, "x.json"));
  // beat and release of it say which file too.
  assert.match(claims(["beat", "x", "--holder", "a", "--dir", box.dir]).stdout, new RegExp(`^LOST x: its claim file ${join(box.dir, "x.json")} cannot be read`, "m"));
});

Cli("should leave no claim behind when the example in claims hook --help is run as given", ({ box }) => {
  const help = claims(["hook", "--help"]).stdout;
  const example = /^\s*\$ (echo .* \| claims hook claude.*)$/m.exec(help)?.[1];
  assert.ok(example, help);
  const run = spawnSync("sh", ["-c", example.replace("| claims ", `| "${process.execPath}" "${BIN}" `)], { env: cleanEnv({ CLAIMS_DIR: box.dir }), encoding: "utf8" });
  assert.is(run.status, 0, run.stderr);
  assert.equal(JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims, []);
});

Cli("should write its own file into a hook and a git hook when run as node bin/claims, without the .js", ({ box }) => {
  spawnSync("git", ["init", "-q"], { cwd: box.project });
  const run = (args: string[]) => spawnSync(process.execPath, [BIN.replace(/\.js$/, ""), ...args], { cwd: box.project, env: cleanEnv({ HOME: box.root }), encoding: "utf8" });
  const guard = run(["guard", "install"]);
  assert.is(guard.status, 0, guard.stderr);
  assert.ok(readFileSync(join(box.project, ".git", "hooks", "prepare-commit-msg"), "utf8").includes(BIN), "the hook runs bin/claims.js");
  const hook = run(["hook", "install", "claude"]);
  assert.is(hook.status, 0, hook.stderr);
  assert.ok(readFileSync(join(box.root, ".claude", "settings.json"), "utf8").includes(`${BIN} hook claude`));
});

Cli.run();

const BadInput = suite<Context>("bad input");
BadInput.before.each(setup);
BadInput.after.each((context) => context.box.cleanup());

const oneSentence = (stderr: string) => {
  assert.match(stderr, /^claims: [A-Z-].*\.\n$/);
  assert.not.match(stderr, /\n\s+at /); // no stack trace
};

const cases: Array<[string, string[], RegExp]> = [
  ["an unknown verb", ["frobnicate"], /Unknown command 'frobnicate'/],
  ["help for an unknown verb", ["help", "tkae"], /Unknown command 'tkae'/],
  ["an unknown flag", ["take", "x", "--holder", "a", "--frob"], /Unknown option '--frob'/],
  ["a missing target", ["take", "--holder", "a"], /Missing required argument/],
  ["a negative TTL", ["take", "x", "--holder", "a", "--ttl", "-5"], /--ttl must be whole seconds from 1 to 2592000/],
  ["a fractional TTL", ["take", "x", "--holder", "a", "--ttl", "1.5"], /--ttl must be whole seconds/],
  ["a TTL over 30 days", ["take", "x", "--holder", "a", "--ttl", "2592001"], /--ttl must be whole seconds/],
  ["a TTL with a space", ["take", "x", "--holder", "a", "--ttl", " 10"], /^claims: --ttl must be plain digits, without spaces or leading zeros \(10 for 10 seconds\); got " 10"\.\n$/],
  ["a TTL with a leading zero", ["take", "x", "--holder", "a", "--ttl", "010"], /^claims: --ttl must be plain digits, without spaces or leading zeros \(10 for 10 seconds\); got "010"\.\n$/],
  ["a wait with a space", ["take", "x", "--holder", "a", "--wait", "10 "], /^claims: --wait must be plain digits, without spaces or leading zeros \(10 for 10 seconds\); got "10 "\.\n$/],
  ["a wait with a leading zero", ["take", "x", "--holder", "a", "--wait", "05"], /^claims: --wait must be plain digits, .*got "05"\.\n$/],
  ["a hook TTL with a leading zero", ["hook", "print-config", "claude", "--claim-ttl", "0600"], /^claims: --claim-ttl must be plain digits, .*got "0600"\.\n$/],
  ["no holder", ["take", "x"], /pass --holder <id> or set CLAIMS_HOLDER/],
  ["two holders", ["take", "x", "--holder", "a", "--holder", "b"], /^claims: --holder was given twice, as "a" and "b"; give it once, with the one meant\.\n$/],
  ["two holders to release", ["release", "kept", "--holder", "owner", "--holder=b"], /--holder was given twice, as "owner" and "b"/],
  // The last --dir won: a take there went unseen by the sessions claiming in the first.
  ["two claims directories", ["take", "kept", "--holder", "b", "--dir", "/nonexistent-claims"], /^claims: --dir was given twice, as "\/nonexistent-claims" and ".*"; give it once, with the one meant\.\n$/],
  ["two claims directories to release", ["release", "--holder", "owner", "--dir=/nonexistent-claims"], /--dir was given twice, as "\/nonexistent-claims"/],
  ["two TTLs", ["take", "x", "--holder", "a", "--ttl", "5", "--ttl", "600"], /^claims: --ttl was given twice, as "5" and "600"; give it once, with the one meant\.\n$/],
  ["two receivers", ["handover", "kept", "--holder", "owner", "--to", "b", "--to", "c"], /^claims: --to was given twice, as "b" and "c"; give it once, with the one meant\.\n$/],
  // A holding's token, a retry's key, a wait: the last one would act on another than meant.
  ["two tokens to beat", ["beat", "kept", "--holder", "owner", "--token", "1", "--token", "2"], /^claims: --token was given twice, as "1" and "2"; give it once, with the one meant\.\n$/],
  ["two tokens to release", ["release", "kept", "--holder", "owner", "--token", "2", "--token=1"], /^claims: --token was given twice, as "2" and "1"/],
  ["two idempotency keys", ["take", "x", "--holder", "a", "--idempotency-key", "k1", "--idempotency-key", "k2"], /^claims: --idempotency-key was given twice, as "k1" and "k2"/],
  ["two waits", ["take", "x", "--holder", "a", "--wait", "1", "--wait", "60"], /^claims: --wait was given twice, as "1" and "60"/],
  // A valued flag given the next flag for its value (commander takes any word): a claim held by "--json", in a directory "./--json", or not shared as asked.
  ["a flag taken for a holder", ["take", "x", "--holder", "--json"], /^claims: --holder needs a value, not the flag --json; give it one \(--holder id\)\.\n$/],
  ["a flag taken for a purpose", ["take", "x", "--holder", "a", "-p", "--shared"], /^claims: --purpose needs a value, not the flag --shared; give it one \(--purpose text\)\.\n$/],
  ["a flag taken for a claims directory", ["take", "x", "--holder", "a", "--dir", "--json"], /^claims: --dir needs a value, not the flag --json/],
  ["another verb's flag taken for a holder", ["take", "x", "--holder=--dry-run"], /^claims: --holder needs a value, not the flag --dry-run; give it one \(--holder id\)\.\n$/],
  ["another verb's flag taken for a holder, on the fast path", ["take", "x", "--holder", "--dry-run"], /^claims: --holder needs a value, not the flag --dry-run/],
  ["help taken for a release's holder", ["release", "kept", "--holder", "-h"], /^claims: --holder needs a value, not the flag -h/],
  ["a file URL for a target", ["take", "file:///tmp/x%20y", "--holder", "a"], /^claims: Target "file:\/\/\/tmp\/x%20y" is a file URL, not a path; give the path \(\/tmp\/x y\)\.\n$/],
  ["a 3000-character target", ["take", "t".repeat(3000), "--holder", "a"], /3000 bytes long/],
  ["a control character", ["take", "a\u0007b", "--holder", "a"], /control character/],
  ["a huge purpose", ["take", "x", "--holder", "a", "--purpose", "p".repeat(5000)], /purpose is 5000 characters/],
  ["a purpose without its flag", ["take", "x", "bump the preset", "--holder", "a"], /^claims: The target 'bump the preset' has spaces and names no file here, so it reads like a purpose: give it with --purpose \(claims take x --purpose 'bump the preset'\)/],
  ["a handover's purpose without its flag", ["handover", "kept", "bump the preset", "--holder", "b"], /^claims: Too many arguments for 'handover'\. Expected 1 argument but got 2: handover queues for one target, and a purpose goes with --purpose \(claims handover TARGET --purpose "\.\.\."\)\.\n$/],
];
for (const [label, args, message] of cases) {
  BadInput(`should answer ${label} with exit 2, one sentence, nothing on disk changed`, ({ box }) => {
    claims(["take", "kept", "--dir", box.dir, "--holder", "owner", "--purpose", "precious"]);
    const before = readFileSync(join(box.dir, "kept.json"), "utf8");
    const result = claims([...args, "--dir", box.dir]);
    assert.is(result.code, 2, result.stderr);
    oneSentence(result.stderr);
    assert.match(result.stderr, message);
    assert.equal(entries(box.dir), ["kept.json"]);
    assert.is(readFileSync(join(box.dir, "kept.json"), "utf8"), before);
  });
}

BadInput("should take --holder given twice with one id as that holder", ({ box }) => {
  const taken = claims(["take", "x", "--holder", "a", "--dir", box.dir, "--holder", "a", "--json"]);
  assert.is(taken.code, 0, taken.stderr);
  assert.is(JSON.parse(taken.stdout).holder, "a");
});

BadInput("should refuse a CLAIMS_TTL with a space or a leading zero, as it refuses --ttl", ({ box }) => {
  for (const value of ["600 ", "0600"]) {
    const result = claims(["take", "x", "--dir", box.dir, "--holder", "a"], { env: { CLAIMS_TTL: value } });
    assert.is(result.code, 2, result.stderr);
    assert.is(result.stderr, `claims: CLAIMS_TTL must be plain digits, without spaces or leading zeros (600 for 600 seconds); got ${JSON.stringify(value)}.\n`);
    assert.not.ok(existsSync(box.dir), "nothing was created");
  }
});

BadInput("should put the error in JSON on stdout under --json", ({ box }) => {
  const result = claims(["take", "x", "--ttl", "0", "--dir", box.dir, "--holder", "a", "--json"]);
  assert.is(result.code, 2);
  const body = JSON.parse(result.stdout);
  assert.is(body.error.code, "BAD_INPUT");
  assert.match(body.error.message, /--ttl/);
});

BadInput("should refuse a claims directory that is a file", ({ box }) => {
  writeFileSync(join(box.root, "not-a-dir"), "keep me");
  const result = claims(["take", "x", "--dir", join(box.root, "not-a-dir"), "--holder", "a"]);
  assert.is(result.code, 2);
  oneSentence(result.stderr);
  assert.is(readFileSync(join(box.root, "not-a-dir"), "utf8"), "keep me");
});

BadInput("should refuse a claims directory the file system will not create, without hanging", () => {
  const result = claims(["take", "x", "--dir", "/proc/claims-cannot-live-here", "--holder", "a"]);
  assert.is(result.code, 2);
  oneSentence(result.stderr);
});

BadInput("should refuse --token without the target it belongs to, one too large to be a token, and --partial with --wait, changing nothing", ({ box }) => {
  for (const target of ["a", "b"]) assert.is(claims(["take", target, "--holder", "h", "--dir", box.dir]).code, 0);
  const before = readdirSync(box.dir).sort();
  const cases: Array<[string[], RegExp]> = [
    [["beat", "--token", "2"], /^claims: --token is the fencing token of one holding, and beat without targets acts on all of yours: name its target \(claims beat TARGET --token 2\)\.\n$/],
    [["release", "--token", "1"], /^claims: --token is the fencing token of one holding, and release without targets acts on all of yours: name its target \(claims release TARGET --token 1\)\.\n$/],
    [["check", "a", "--token", "99999999999999999999"], /^claims: --token 99999999999999999999 is larger than any fencing token can be/],
    [["take", "c", "d", "--partial", "--wait", "2"], /^claims: --wait and --partial cannot be used together: --wait waits until every target is free, --partial takes what is free now\.\n$/],
  ];
  for (const [args, message] of cases) {
    const result = claims([...args, "--holder", "h", "--dir", box.dir]);
    assert.is(result.code, 2, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message);
    oneSentence(result.stderr);
  }
  assert.equal(readdirSync(box.dir).sort(), before, "nothing changed");
  const status = JSON.parse(claims(["status", "--mine", "--holder", "h", "--json", "--dir", box.dir]).stdout);
  assert.equal(status.claims.map((claim: { target: string }) => claim.target).sort(), ["a", "b"]);
});

BadInput("should take a word that reads like a directory as the name a claim already carries: renewed by its holder, refused to others", ({ box }) => {
  const take = (holder: string) => claims(["take", "build", "--holder", holder, "--dir", box.dir], { cwd: box.project });
  assert.is(take("ci").code, 2, "no such claim yet: which is meant is asked");
  assert.is(claims(["take", "name:build", "--holder", "ci", "--purpose", "release build", "--dir", box.dir], { cwd: box.project }).code, 0);
  const renewed = take("ci");
  assert.is(renewed.code, 0, renewed.stderr);
  assert.match(renewed.stdout, /^renewed build /);
  assert.is(take("other").code, 3, "held as a name: refused, not asked");
  assert.is(claims(["release", "build", "--holder", "ci", "--dir", box.dir], { cwd: box.project }).code, 0);
  assert.is(take("ci").code, 2, "once no claim carries it, which is meant is asked again");
});

BadInput("should refuse a hook's or the MCP server's --dir whose parent does not exist (a typo), creating nothing", ({ box }) => {
  const typo = join(box.root, "nosuch", "parent", "claims");
  const input = JSON.stringify({ session_id: "s9", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(box.project, "z.ts"), content: "x" } });
  const hooked = spawnSync(process.execPath, [BIN, "hook", "claude", "--dir", typo], { input, env: cleanEnv({}), encoding: "utf8" });
  const answer = JSON.parse(hooked.stdout).hookSpecificOutput;
  assert.is(answer.permissionDecision, "deny", "the write cannot be checked where sessions claim");
  assert.match(answer.permissionDecisionReason, /--dir of claims hook claude \(.*\) does not exist, nor does its parent .* \(a mistyped path\?\)/);
  const served = spawnSync(process.execPath, [BIN, "mcp", "--dir", typo], { input: "", env: cleanEnv({}), encoding: "utf8" });
  assert.is(served.status, 2, served.stderr);
  oneSentence(served.stderr);
  assert.not.ok(existsSync(join(box.root, "nosuch")), "nothing was created");
});

BadInput("should refuse a --dir whose parent does not exist (a typo), creating nothing, and make one CLAIMS_DIR or .claims names with its parents", ({ box }) => {
  const typo = join(box.root, "nosuch", "parent", "claims");
  for (const verb of [["take", "x"], ["check", "x"], ["status"]]) {
    const result = claims([...verb, "--holder", "a", "--dir", typo], { cwd: box.project });
    assert.is(result.code, 2, `${verb[0]}: ${result.stderr}`);
    oneSentence(result.stderr);
    assert.is(
      result.stderr,
      `claims: --dir ${typo} does not exist, nor does its parent ${join(box.root, "nosuch", "parent")} (a mistyped path?); fix the path, or create ${join(box.root, "nosuch", "parent")} first if it is meant.\n`,
      verb[0],
    );
    assert.not.ok(existsSync(join(box.root, "nosuch")), `${verb[0]}: nothing was created`);
  }
  // Set once, deliberately: a project's .claims may name a directory in a cache not made yet.
  const cached = join(box.root, "env-cache", "agents", "claims");
  assert.is(claims(["take", "x", "--holder", "a"], { cwd: box.project, env: { CLAIMS_DIR: cached } }).code, 0);
  assert.ok(existsSync(join(cached, "x.json")));
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: ".cache/claims" }));
  assert.is(claims(["take", "y", "--holder", "a"], { cwd: box.project }).code, 0);
  assert.ok(existsSync(join(box.project, ".cache", "claims", "y.json")));
});

BadInput("should still make a claims directory whose parent exists, and the default one with its missing parents", ({ box }) => {
  assert.is(claims(["take", "x", "--holder", "a", "--dir", join(box.root, "fresh")]).code, 0);
  assert.ok(existsSync(join(box.root, "fresh", "x.json")));
  const home = join(box.root, "home"); // a fresh machine: no ~/.local/state yet
  mkdirSync(home);
  assert.is(claims(["take", "y", "--holder", "a"], { cwd: box.project, env: { HOME: home } }).code, 0);
  assert.ok(existsSync(join(home, ".local", "state", "claims", "y.json")));
  const state = join(box.root, "xdg", "state"); // $XDG_STATE_HOME/claims, $XDG_STATE_HOME not made yet
  assert.is(claims(["take", "z", "--holder", "a"], { cwd: box.project, env: { HOME: home, XDG_STATE_HOME: state } }).code, 0);
  assert.ok(existsSync(join(state, "claims", "z.json")));
});

BadInput("should report a corrupt claim file in status and refuse to take it while it is recent", ({ box }) => {
  mkdirSync(box.dir);
  const torn = '{\n  "target": "x",\n  "holder": "a'; // a claim cut short
  writeFileSync(join(box.dir, "x.json"), torn);
  const shown = claims(["status", "--dir", box.dir]);
  assert.is(shown.code, 0);
  assert.match(shown.stdout, /x\s+unreadable\s+x\.json: the file is not valid JSON/);
  const taken = claims(["take", "x", "--dir", box.dir, "--holder", "a"]);
  assert.is(taken.code, 3);
  assert.match(taken.stdout, /cannot be read/);
  assert.is(readFileSync(join(box.dir, "x.json"), "utf8"), torn);
});

BadInput("should say why a shared claim under an exclusive claim's name is unreadable, and a claim under another target's name", ({ box }) => {
  mkdirSync(box.dir);
  const claim = (target: string, extra: object = {}) => JSON.stringify({ target, holder: "h", purpose: "", taken_at: "2026-12-01T12:00:00Z", heartbeat_at: "2026-12-01T12:00:00Z", ...extra });
  writeFileSync(join(box.dir, "x.json"), claim("x", { mode: "shared" }));
  writeFileSync(join(box.dir, "y.json"), claim("z"));
  const shown = claims(["status", "--dir", box.dir]).stdout;
  assert.match(shown, /x\.json: it says "mode": "shared", but a shared claim lives in its holder's own file \(x\+[0-9a-f]{16}\.json\), not under the exclusive name/);
  assert.match(shown, /y\.json: its target "z" does not belong under this file name/);
});

BadInput("should quote a file#symbol target with two # as it was typed, its directory included", ({ box }) => {
  const result = claims(["take", "src/utils.ts#a#b", "--dir", box.dir, "--holder", "a"], { cwd: box.project });
  assert.is(result.code, 2);
  assert.is(result.stderr, "claims: Target src/utils.ts#a#b has more than one #, and no file src/utils.ts#a exists; write file#name with one #, escaping a # of the file's name as \\#.\n");
});

BadInput("should answer no verb at all with the whole of claims --help on stderr and exit 2", () => {
  const bare = claims([]);
  assert.is(bare.code, 2);
  assert.is(bare.stdout, "");
  const help = claims(["--help"]);
  assert.is(help.code, 0);
  assert.is(bare.stderr, help.stdout, "the same text, exit codes, settings and examples included");
  assert.match(bare.stderr, /Exit codes: 0 done/);
  assert.match(bare.stderr, /Examples:\n {2}\$ claims take /);
});

BadInput("should show help with examples for a verb", () => {
  const result = claims(["take", "--help"]);
  assert.is(result.code, 0);
  assert.match(result.stdout, /Examples:/);
  assert.match(result.stdout, /--purpose/);
});

BadInput.run();

const Terminal = suite<Context>("holder ids derived from the terminal");
Terminal.before.each(setup);
Terminal.after.each((context) => context.box.cleanup());

/** Runs shell commands inside a new pseudo-terminal session (util-linux `script`), like a person at a terminal. */
function inTerminal(commands: string, box: Sandbox): string {
  const result = spawnSync("script", ["-qec", commands, "/dev/null"], {
    cwd: box.project,
    env: cleanEnv({ CLAIMS_DIR: box.dir }),
    encoding: "utf8",
  });
  return result.stdout;
}

Terminal("should be one holder for every call in one terminal and another in a second terminal", ({ box }) => {
  const take = `${process.execPath} ${BIN} take x --json`;
  // The top-level "holder" of each take's JSON (two-space indent), not the claims' own.
  const first = inTerminal(`${take}; ${take}`, box).match(/^ {2}"holder": "[^"]+"/gm) ?? [];
  assert.is(first.length, 2);
  assert.is(first[0], first[1]);
  assert.match(first[0] as string, /tty-/);
  const second = inTerminal(`${process.execPath} ${BIN} take x --json`, box);
  assert.match(second, /"refused"/);
  assert.not.match(second, /"granted": \[\n\s+\{/);
});

Terminal.run();
