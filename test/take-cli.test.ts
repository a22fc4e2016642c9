// take as a new user meets it from the command line: the rules it states, kept.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, sandbox, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox };
const Take = suite<Context>("take from the command line");
Take.before.each((context) => {
  context.box = sandbox();
});
Take.after.each((context) => context.box.cleanup());

/** Polls for a condition a real process brings about (no timing is asserted: only that it happens). */
async function until(predicate: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 600 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(predicate(), `timed out waiting for ${what()}`);
}

const as = (box: Sandbox, holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], { cwd: box.project });

Take("should keep --queue all or nothing: a refused take queues for what is held and takes nothing free", ({ box }) => {
  assert.is(as(box, "a", "take", "held", "--purpose", "first").code, 0);
  const queued = as(box, "b", "take", "free1", "free2", "held", "--queue", "--json");
  assert.is(queued.code, 6);
  const body = JSON.parse(queued.stdout);
  assert.equal(body.granted, []);
  assert.equal(body.queued.map((place: { target: string }) => place.target), ["held"]);
  assert.is(as(box, "c", "take", "free1", "free2").code, 0, "the free targets were left free");
});

Take("should point a ~word naming a file here to ./~word, which takes it", ({ box }) => {
  writeFileSync(join(box.project, "~notes"), "x\n");
  const tilde = as(box, "a", "take", "~notes");
  assert.is(tilde.code, 2, tilde.stderr);
  assert.match(tilde.stderr, /~notes uses ~user, which is not supported; write the absolute path \(or \.\/~notes for a file of that name here\)/);
  const dotted = as(box, "a", "take", "./~notes");
  assert.is(dotted.code, 0, dotted.stderr);
  assert.match(dotted.stdout, new RegExp(`granted ${box.project}/~notes `));
});

Take("should refuse a target with a stray space at either end (a claim on the name \"a.ts \" protects no file), unless a file has that name", ({ box }) => {
  writeFileSync(join(box.project, "a.ts"), "");
  for (const [target, where] of [["a.ts ", "ends"], [" a.ts", "starts"]] as const) {
    const spaced = as(box, "a", "take", target);
    assert.is(spaced.code, 2, spaced.stdout);
    assert.is(spaced.stderr, `claims: Target ${JSON.stringify(target)} ${where} with a space, which no file here has; write it without (a.ts), or as ${JSON.stringify(`name:${target}`)} for a name that holds one.\n`);
  }
  assert.equal(JSON.parse(as(box, "a", "status", "--json").stdout).claims, [], "nothing was taken");
  writeFileSync(join(box.project, "b.ts "), "");
  assert.is(as(box, "a", "take", "b.ts ").code, 0, "a file of that name");
  assert.is(as(box, "a", "take", "name:c ").code, 0, "a name given as one");
});

Take("should refuse a directory target naming a file (gen/out.js/ for the file gen/out.js), taking nothing, and renew one already claimed so", ({ box }) => {
  mkdirSync(join(box.project, "gen"));
  writeFileSync(join(box.project, "gen", "out.js"), "x\n");
  const typo = as(box, "a", "take", "gen/out.js/", "free");
  assert.is(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /gen\/out\.js is a file, not a directory; claim it without the trailing slash/);
  assert.equal(existsSync(box.dir) ? readdirSync(box.dir).filter((name) => name.endsWith(".json")) : [], [], "nothing was taken");
  assert.is(as(box, "a", "take", "gen/out.js").code, 0, "the file itself is taken");
  // A directory claimed before a file took its place: its holder renews it, another is refused.
  assert.is(as(box, "b", "take", "gen/later/").code, 0);
  writeFileSync(join(box.project, "gen", "later"), "now a file\n");
  assert.is(as(box, "b", "take", "gen/later/").code, 0, "renewed");
  assert.is(as(box, "c", "take", "gen/later/").code, 3, "refused: held by b");
});

Take("should say that --force or --creating changed nothing where no target needs it, and take all the same", ({ box }) => {
  const creating = "claims: note: --creating changed nothing: it allows a file#symbol target whose symbol the file does not declare yet, and no target names a symbol\n";
  const force = "claims: note: --force changed nothing: it allows a target covering /, a home directory or a whole repository, and no target does\n";
  const names = as(box, "a", "take", "shared-config", "--creating", "--force");
  assert.is(names.code, 0, names.stderr);
  assert.is(names.stderr, creating + force);
  writeFileSync(join(box.project, "u.ts"), "export function f() {}\n");
  const file = as(box, "a", "take", "./u.ts", "--force", "--json");
  assert.is(file.code, 0);
  assert.is(file.stderr, force);
  assert.equal(JSON.parse(file.stdout).warnings, [force.slice("claims: note: ".length, -1)]);
  // Where one target needs it: no note.
  assert.is(as(box, "a", "take", "u.ts#g", "--creating").stderr, "");
  spawnSync("git", ["init", "-q"], { cwd: box.project });
  assert.is(as(box, "a", "take", "name", ".", "--force").stderr, "", "the whole repository");
});

Take("should grant a glob that matches no file yet with a one-line note on stderr, and say nothing of one that matches", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  const unmatched = as(box, "a", "take", "src/*.tss");
  assert.is(unmatched.code, 0);
  assert.match(unmatched.stdout, /^granted .*\/src\/\*\.tss/m);
  assert.equal(unmatched.stderr.trim().split("\n"), [`claims: note: ${join(box.project, "src/*.tss")} matches no file yet; the claim covers matching files once they are created (check the pattern if you meant existing ones)`]);
  const json = as(box, "b", "take", "lib/**", "--json");
  assert.equal(JSON.parse(json.stdout).unmatched_globs, [join(box.project, "lib/**")]);
  assert.is(json.stderr, "", "--json: the field, not the note");
  mkdirSync(join(box.project, "docs"));
  writeFileSync(join(box.project, "docs", "a.md"), "");
  const matched = as(box, "c", "take", "docs/*.md");
  assert.is(matched.code, 0);
  assert.is.not(matched.stderr.includes("matches no file"), true, matched.stderr);
});

Take("should suggest on REFUSED a --queue command that queues and takes nothing, as it says", ({ box }) => {
  assert.is(as(box, "a", "take", "held").code, 0);
  const refused = as(box, "b", "take", "free1", "held");
  assert.is(refused.code, 3);
  const suggested = /queue a handover[^:]*: claims (take [^\n]*--queue)/.exec(refused.stdout);
  assert.ok(suggested, refused.stdout);
  const args = (suggested[1] as string).replace(' --purpose "..."', "").split(" ");
  const queued = as(box, "b", ...args);
  assert.is(queued.code, 6, queued.stdout);
  assert.match(queued.stdout, /Nothing else was taken: take is all or nothing/);
  assert.is(as(box, "c", "take", "free1").code, 0, "free1 was not taken by the queued command");
});

Take("should take what is free and queue the rest with --partial --queue", ({ box }) => {
  assert.is(as(box, "a", "take", "held").code, 0);
  const queued = as(box, "b", "take", "free1", "held", "--partial", "--queue", "--json");
  assert.is(queued.code, 6);
  assert.equal(JSON.parse(queued.stdout).granted.map((claim: { target: string }) => claim.target), ["free1"]);
});

Take("should refuse a claim on /, a home directory or a whole repository without --force, saying why", ({ box }) => {
  const home = join(box.root, "home");
  mkdirSync(home);
  mkdirSync(join(box.project, ".git"));
  mkdirSync(join(box.project, "sub"));
  const run = (cwd: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", "a"], { cwd, env: { HOME: home } });
  for (const [cwd, target, why] of [
    [box.project, "/", /\/ is the filesystem root/],
    [box.project, "~", /is your home directory/],
    [box.project, "..", /contains your home directory/],
    [box.project, ".", /is the root of a whole repository/],
    [join(box.project, "sub"), "..", /is the root of a whole repository/],
    [join(box.project, "sub"), "**", /^$/],
    [box.project, "**", /\*\* covers the whole repository \//],
    [box.project, "*/**", /covers the whole repository/],
    [box.project, "{**,x}", /covers the whole repository/], // one alternative of a brace is enough
    [box.project, "{src,lib}/**", /^$/],
    [box.project, "../*/**", /covers your home directory/],
    [join(box.project, "sub"), "../**/*", /covers the whole repository/],
    [box.project, "/*/*/**", /\/\*\/\*\/\*\* covers the whole filesystem/],
    [box.project, "**/*.md", /^$/],
    [box.project, "sub/*/**", /^$/],
  ] as const) {
    const refused = run(cwd, "take", target);
    if (why.source === "^$") {
      assert.is(refused.code, 0, `${target} in ${cwd}: ${refused.stderr}`);
      continue;
    }
    assert.is(refused.code, 2, `${target} in ${cwd}`);
    assert.match(refused.stderr, why);
    assert.match(refused.stderr, /would refuse every write of every other session under it.*--force/);
  }
  assert.is(run(box.project, "release").code, 0);
  const forced = run(box.project, "take", ".", "--force");
  assert.is(forced.code, 0, forced.stderr);
  assert.is(run(box.project, "take", "sub").code, 0, "a directory inside the repository is fine");
});

Take("should print the WAITING lines of --wait on stderr when it is not a terminal, at the start and when who is in the way changes", async ({ box }) => {
  assert.is(as(box, "a", "take", "x", "--purpose", "rewriting x").code, 0);
  assert.is(as(box, "c", "take", "y", "--purpose", "rewriting y").code, 0);
  const child = spawn(process.execPath, [BIN, "take", "x", "y", "--wait", "60", "--dir", box.dir, "--holder", "b"], { cwd: box.project, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  await until(() => /WAITING y/.test(stderr), () => `the first WAITING lines; stderr: ${stderr}`);
  assert.match(stderr, /^WAITING x: held by a for "rewriting x" \(heartbeat \d+s ago\)$/m);
  assert.match(stderr, /^WAITING y: held by c for "rewriting y" \(heartbeat \d+s ago\)$/m);
  assert.is(as(box, "c", "release", "y").code, 0);
  await until(() => (stderr.match(/WAITING x/g) ?? []).length === 2, () => `x again, alone; stderr: ${stderr}`);
  assert.is((stderr.match(/WAITING y/g) ?? []).length, 1, stderr);
  assert.is(as(box, "a", "release", "x").code, 0);
  assert.is(await exited, 0, stderr);
});

Take("should show on TIMEOUT the heartbeat's age when the wait ended, not when it began", ({ box }) => {
  assert.is(as(box, "a", "take", "x").code, 0);
  const timedOut = as(box, "b", "take", "x", "--wait", "3", "--json");
  assert.is(timedOut.code, 5);
  // Taken before the wait began and never beaten: as old as the wait, less the second its writer rounds up.
  assert.ok(JSON.parse(timedOut.stdout).refused[0].heartbeat_age_seconds >= 2, timedOut.stdout);
});

Take("should advise on TIMEOUT the take that queues for the same targets", ({ box }) => {
  assert.is(as(box, "a", "take", "x").code, 0);
  const timedOut = as(box, "b", "take", "x", "y z", "--wait", "1", "--purpose", "p");
  assert.is(timedOut.code, 5);
  assert.match(timedOut.stdout, `Queue instead to be granted it later, in order: claims take x 'y z' --dir ${box.dir} --holder b --queue --purpose "..."`);
});

Take("should leave a handover note queued before a --wait as it was when the wait runs out, and say it stays", ({ box }) => {
  assert.is(as(box, "a", "take", "cfg", "--purpose", "editing").code, 0);
  assert.is(as(box, "b", "handover", "cfg", "--purpose", "bump the preset", "--ttl", "900").code, 6);
  const queueFile = () => readdirSync(box.dir).filter((name) => name.startsWith(".queue"));
  const [note] = queueFile();
  assert.ok(note, readdirSync(box.dir).join(" "));
  const before = JSON.parse(readFileSync(join(box.dir, note as string), "utf8"));
  const timedOut = as(box, "b", "take", "cfg", "--wait", "1", "--purpose", "something else");
  assert.is(timedOut.code, 5);
  // Not "nothing was kept": the note stays, in its place, with its own purpose and TTL.
  assert.not.match(timedOut.stdout, /Nothing was kept/);
  assert.match(timedOut.stdout, /^queued cfg at position 1: /m);
  assert.match(timedOut.stdout, `Nothing was taken: the wait ran out. Your place queued before it (above) stays as it was; claims release cfg --dir ${box.dir} --holder b withdraws it.`);
  assert.equal(queueFile(), [note]);
  const after = JSON.parse(readFileSync(join(box.dir, note as string), "utf8"));
  assert.equal({ ...after, heartbeat_at: "" }, { ...before, heartbeat_at: "" });
  const json = JSON.parse(as(box, "b", "take", "cfg", "--wait", "1", "--json").stdout);
  assert.equal([json.timed_out, json.queued.map((place: { target: string; position: number }) => [place.target, place.position])], [true, [["cfg", 1]]]);
  // And the queue still grants it in order: a's release hands cfg to b.
  assert.is(as(box, "a", "release", "cfg").code, 0);
  assert.is(JSON.parse(claims(["status", "cfg", "--json", "--dir", box.dir], { cwd: box.project }).stdout).claims[0].holder, "b");
});

Take("should leave a target granted from a handover note queued before a --wait of several targets with its holder when the wait runs out", async ({ box }) => {
  assert.is(as(box, "h1", "take", "name:x").code, 0);
  assert.is(as(box, "h3", "take", "name:y").code, 0);
  assert.is(as(box, "h2", "handover", "name:x", "--purpose", "my note").code, 6);
  // The wait of x and y; x frees meanwhile and goes to h2 from its note; y never does.
  const waiting = spawn(process.execPath, [BIN, "take", "name:x", "name:y", "--wait", "6", "--json", "--dir", box.dir, "--holder", "h2"], { cwd: box.project, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  waiting.stdout.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => waiting.on("close", resolve));
  await until(() => readdirSync(box.dir).some((name) => name.startsWith(".queue-y")), () => readdirSync(box.dir).join(" "));
  assert.is(as(box, "h1", "release", "name:x").code, 0);
  assert.is(await exited, 5);
  const answer = JSON.parse(out);
  assert.equal([answer.timed_out, answer.granted_from_queue], [true, ["x"]]);
  const mine = JSON.parse(claims(["status", "--mine", "--json", "--dir", box.dir, "--holder", "h2"], { cwd: box.project }).stdout);
  assert.equal(mine.claims.map((claim: { target: string; purpose: string }) => [claim.target, claim.purpose]), [["x", "my note"]]);
  assert.equal(mine.granted_while_waiting.map((grant: { target: string }) => grant.target), ["x"], "told once by status");
});

Take("should not take a grant notice left unread from an earlier grant for a --wait's takeover, and keep a swept claim's purpose in the notice", async ({ box }) => {
  assert.is(as(box, "h1", "take", "name:x", "--ttl", "2", "--purpose", "short job").code, 0);
  assert.is(as(box, "h2", "take", "name:x", "--queue").code, 6);
  await new Promise((resolve) => setTimeout(resolve, 3100));
  assert.equal(JSON.parse(as(box, "h0", "sweep", "--json").stdout).granted, [{ target: "x", holder: "h2" }]);
  const notices = readdirSync(box.dir).filter((name) => name.startsWith(".granted-"));
  const notice = JSON.parse(readFileSync(join(box.dir, notices[0] as string), "utf8"));
  assert.equal([notices.length, notice.previous, notice.previous_purpose], [1, "h1", "short job"], "the swept claim's purpose, kept for the waiter's answer");
  // h2 never reads that notice; it hands x on, then waits for it again, and gets it released, not stale.
  assert.is(as(box, "h2", "handover", "name:x", "--to", "h3").code, 0);
  const waiting = spawn(process.execPath, [BIN, "take", "name:x", "--wait", "20", "--json", "--dir", box.dir, "--holder", "h2"], { cwd: box.project, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  waiting.stdout.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => waiting.on("close", resolve));
  await until(() => readdirSync(box.dir).some((name) => name.startsWith(".queue-x")), () => readdirSync(box.dir).join(" "));
  assert.is(as(box, "h3", "release", "name:x").code, 0);
  assert.is(await exited, 0);
  const [claim] = JSON.parse(out).granted;
  assert.equal([claim.action, claim.previous], ["taken", undefined]);
});

Take("should say from whom a --wait took a claim that went stale while it waited, as a take over it says", ({ box }) => {
  assert.is(as(box, "shorty", "take", "x", "--ttl", "2", "--purpose", "a short job").code, 0);
  const waited = as(box, "w", "take", "x", "--wait", "20", "--json");
  assert.is(waited.code, 0, waited.stderr);
  const [claim] = JSON.parse(waited.stdout).granted;
  assert.equal([claim.action, claim.previous.holder, claim.previous.purpose], ["took_over", "shorty", "a short job"]);
  assert.is(as(box, "w", "release", "x").code, 0);
  assert.is(as(box, "shorty", "take", "x", "--ttl", "2", "--purpose", "again").code, 0);
  assert.match(as(box, "w", "take", "x", "--wait", "20").stdout, /^took over x \(token \d+\) from a stale claim: held by shorty for "again" \(heartbeat \d+s ago\)$/m);
});

Take("should queue a handover for a symbol its holder is adding with --creating, as the refusal without it advises", ({ box }) => {
  writeFileSync(join(box.project, "utils.ts"), "export const a = 1;\n");
  assert.is(as(box, "a", "take", "utils.ts#newThing", "--creating", "--purpose", "adding it").code, 0);
  const without = as(box, "b", "handover", "utils.ts#newThing");
  assert.is(without.code, 2);
  assert.match(without.stderr, /pass --creating to claim a symbol you are about to add/);
  const queued = as(box, "b", "handover", "utils.ts#newThing", "--creating", "--purpose", "after a");
  assert.is(queued.code, 6, queued.stderr);
  assert.match(queued.stdout, /^queued \S+utils\.ts#newThing at position 1/m);
  assert.match(claims(["handover", "--help"]).stdout, /--creating +allow file#symbol for a symbol not in its file yet/);
});

Take("should suggest commands that act for the refused session in its claims directory: run as printed, they queue there", ({ box }) => {
  assert.is(as(box, "a", "take", "cfg", "--purpose", "a's work").code, 0);
  const refused = claims(["take", "cfg", "--dir", box.dir, "--holder", "b b", "--shared", "--ttl", "600"], { cwd: box.project });
  assert.is(refused.code, 3);
  const suggested = /claims take (.*) --purpose "\.\.\."$/m.exec(refused.stdout)?.[1];
  assert.is(suggested, `cfg --dir ${box.dir} --holder 'b b' --ttl 600 --shared --queue`);
  const run = spawnSync("bash", ["-c", `${process.execPath} ${BIN} take ${suggested} --purpose later`], { cwd: box.project, env: cleanEnv(), encoding: "utf8" });
  assert.is(run.status, 6, run.stdout + run.stderr);
  assert.match(run.stdout, `claims status --mine --holder 'b b' --dir ${box.dir} shows it`);
  const status = JSON.parse(claims(["status", "cfg", "--json", "--dir", box.dir], { cwd: box.project }).stdout);
  assert.equal(status.claims.map((claim: { holder: string }) => claim.holder), ["a"]);
  assert.equal(status.claims[0].queue.map((entry: { holder: string }) => entry.holder), ["b b"]);
  const queued = readdirSync(box.dir).filter((name) => name.startsWith(".queue-")).map((name) => JSON.parse(readFileSync(join(box.dir, name), "utf8")));
  assert.equal(queued.map((entry) => [entry.holder, entry.mode, entry.ttl]), [["b b", "shared", 600]], "as the refused take asked: shared, its TTL");
});

Take("should show a target or purpose with an invisible or direction-changing character escaped, and keep it exact in JSON", ({ box }) => {
  assert.is(as(box, "a", "take", "x\u200by", "--purpose", "fix \u202eevil").code, 0);
  const refused = as(box, "b", "take", "x\u200by");
  assert.is(refused.code, 3);
  assert.match(refused.stdout, /^REFUSED x\\u200by: held by a for "fix \\u202eevil" \(heartbeat /m);
  assert.match(refused.stdout, / claims take \$'x\\u200by' --dir /, "the suggested command shows it too, and bash reads it back");
  assert.not.match(refused.stdout, /[\u200b\u202e]/);
  const human = claims(["status", "--dir", box.dir], { cwd: box.project }).stdout;
  assert.match(human, /^x\\u200by  fresh for 30m  a  heartbeat \d+s ago  "fix \\u202eevil"$/m);
  const json = JSON.parse(claims(["status", "--json", "--dir", box.dir], { cwd: box.project }).stdout);
  assert.equal([json.claims[0].target, json.claims[0].purpose], ["x\u200by", "fix \u202eevil"]);
  // An error on stderr names the target escaped too (a sentence the character would turn around); --json keeps it exact.
  assert.is(as(box, "a", "release", "x\u200by").code, 0);
  const notHeld = as(box, "b", "handover", "x\u200by", "--to", "c");
  assert.is(notHeld.code, 4);
  assert.is(notHeld.stderr, "claims: You do not hold x\\u200by: nobody does; take it with claims take $'x\\u200by'.\n");
  const notHeldJson = claims(["handover", "x\u200by", "--to", "c", "--holder", "b", "--json", "--dir", box.dir], { cwd: box.project });
  assert.match(JSON.parse(notHeldJson.stdout).error.message, /^You do not hold x\u200by: /);
});

Take("should quote a purpose as JSON once: a tab as \\t, a backslash doubled once, a typed \\u200b apart from a zero-width space", ({ box }) => {
  // (Escaped twice before: "tab\\\\there", and a backslash shown as four.)
  assert.is(as(box, "a", "take", "x", "--purpose", "tab\there back\\slash \\u200b \u200b").code, 0);
  const human = claims(["status", "--dir", box.dir], { cwd: box.project }).stdout;
  assert.ok(human.includes(String.raw`"tab\there back\\slash \\u200b \u200b"`), human);
  assert.ok(as(box, "b", "take", "x").stdout.includes(String.raw`held by a for "tab\there back\\slash \\u200b \u200b"`));
});

Take("should show a backslash that reads as an escape doubled, so six characters never show as the one they spell", ({ box }) => {
  assert.is(as(box, "eve", "take", "name:a\u200bb").code, 0); // a zero-width space
  assert.is(as(box, "zed", "take", "name:a\\u200bb").code, 0); // a backslash, then u200b
  const lines = as(box, "me", "status").stdout.split("\n");
  assert.ok(lines.some((line) => line.startsWith("a\\u200bb ") && line.includes(" eve ")), lines.join("\n"));
  assert.ok(lines.some((line) => line.startsWith("a\\\\u200bb ") && line.includes(" zed ")), lines.join("\n"));
  assert.is(as(box, "me", "take", "name:C:\\temp").stdout.split("\n")[0], "granted C:\\\\temp (token 1)");
});

Take("should escape C1 controls and the line and paragraph separators, and refuse them in a holder id, --to as --holder", ({ box }) => {
  assert.is(as(box, "a", "take", "x\u0085y\u2028z", "--purpose", "p\u009b2Jq").code, 0);
  const refused = as(box, "b", "take", "x\u0085y\u2028z");
  assert.is(refused.code, 3);
  assert.match(refused.stdout, /^REFUSED x\\u0085y\\u2028z: held by a for "p\\u009b2Jq"/m);
  assert.not.match(refused.stdout, /[\u0080-\u009f\u2028]/);
  assert.match(refused.stdout, / claims take \$'x\\u0085y\\u2028z' --dir /);
  for (const [flag, id, wording] of [
    ["--holder", "a\u0085b", /^claims: --holder must be 1 to 200 printable characters; got "a\\u0085b"\.\n$/],
    ["--holder", "a\u2029b", /^claims: --holder "a\\u2029b" has an invisible or direction-changing character \(U\+2029\)/],
    ["--holder", "a\u061cb", /\(U\+061C\)/],
    ["--holder", "a\u{e0041}b", /\(U\+E0041\)/], // a tag character: text a reader does not see
    // A space at either end shows nowhere: " a" would be another holder that every refusal names "a".
    ["--holder", " a", /^claims: --holder " a" starts or ends with white space, which no refusal or status line shows; use "a"\.\n$/],
    ["--holder", "a\u00a0", /^claims: --holder "a\u00a0" starts or ends with white space/],
  ] as const) {
    const result = claims(["take", "w", flag, id, "--dir", box.dir], { cwd: box.project });
    assert.is(result.code, 2, id);
    assert.match(result.stderr, wording);
  }
  // handover --to names the next holder: the same rule as --holder (it was let through).
  assert.is(as(box, "a", "take", "h").code, 0);
  const handed = as(box, "a", "handover", "h", "--to", "b\u202ec");
  assert.is(handed.code, 2, handed.stdout);
  assert.match(handed.stderr, /^claims: --to "b\\u202ec" has an invisible or direction-changing character \(U\+202E\)/);
  assert.is(JSON.parse(claims(["status", "h", "--json", "--dir", box.dir], { cwd: box.project }).stdout).claims[0].holder, "a", "nothing handed over");
});

Take("should name its own flags in bad input, where the library names its options", ({ box }) => {
  for (const [args, wording] of [
    [["take", "x", "--holder", ""], /^claims: --holder must be 1 to 200 printable characters/],
    [["take", "x", "--holder", "claude-a\u202eb"], /^claims: --holder "claude-a\\u202eb" has an invisible or direction-changing character \(U\+202E\); use visible characters only\.\n$/],
    [["take", "x"], /^claims: No holder id: pass --holder <id> or set CLAIMS_HOLDER/],
    [["take", "x", "--holder", "a", "--wait", "5", "--queue"], /^claims: --wait and --queue cannot be used together/],
    [["take", "/", "--holder", "a"], /pass --force if you mean it/],
  ] as const) {
    const result = claims([...args, "--dir", box.dir], { cwd: box.project });
    assert.is(result.code, 2);
    assert.match(result.stderr, wording);
  }
});

Take("should refuse bytes that are not UTF-8 in a holder or in a path no file has, which would read as U+FFFD and meet another's", ({ box }) => {
  // Through a shell: node passes its arguments as UTF-8, and bash's printf makes the raw bytes.
  const raw = (args: string) => spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" ${args} --dir "${box.dir}"`], { cwd: box.project, env: cleanEnv(), encoding: "utf8" });
  for (const [args, wording] of [
    [`take name:z --holder "$(printf 'a\\377')"`, /^claims: --holder "a\uFFFD" has U\+FFFD, which stands for bytes that are not UTF-8; use a UTF-8 id\.\n$/],
    [`take "./$(printf '\\377').txt" --holder a`, /no file here has that name; claim its directory, or rename the file to UTF-8\.\n$/],
  ] as const) {
    const result = raw(args);
    assert.is(result.status, 2, `${args}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, wording);
  }
  assert.ok(!existsSync(box.dir) || readdirSync(box.dir).every((name) => !name.endsWith(".json")), "nothing claimed");
  // A file whose name really has U+FFFD is claimed by it, and a file not there yet in a directory named so.
  writeFileSync(join(box.project, "\uFFFD.txt"), "");
  assert.is(as(box, "a", "take", "./\uFFFD.txt").code, 0);
  mkdirSync(join(box.project, "d\uFFFD"));
  assert.is(as(box, "a", "take", "./d\uFFFD/new.ts").code, 0);
});

Take("should check a path longer than a target may be by the directory above it that fits, as the hooks judge its write", ({ box }) => {
  const part = "d".repeat(200);
  const deep = join("deep", part, part, part, part, part, part, "f.ts");
  assert.is(as(box, "a", "take", "./deep/").code, 0);
  const refused = as(box, "b", "check", deep);
  assert.is(refused.code, 3, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /is longer than a target may be \(1024 bytes\): checked as the directory .*\/ above it/);
  assert.is(as(box, "b", "check", deep.replace(/^deep/, "other")).code, 0, "elsewhere: free");
  assert.is(as(box, "a", "check", deep).code, 0, "its holder's");
  // A long spelling that leads, through a symlink, to a short path a claim covers: judged where it leads.
  const elsewhere = join(box.root, "elsewhere");
  mkdirSync(elsewhere);
  assert.is(as(box, "a", "take", `${elsewhere}/`).code, 0);
  const long = join("long", part, part, part, part, part);
  mkdirSync(join(box.project, long), { recursive: true });
  symlinkSync(elsewhere, join(box.project, long, "lnk"));
  for (const path of [join(long, "lnk", "new.ts"), join(long, "lnk", "sub", "..", "x.ts")]) assert.is(as(box, "b", "check", path).code, 3, path.slice(-20));
  // One over the limit that climbs back with `..` to a short path a claim covers: judged where the kernel leads it (it was exit 2).
  writeFileSync(join(box.project, "x.txt"), "x\n");
  assert.is(as(box, "a", "take", "./x.txt").code, 0);
  const climb = `${join(box.project, long)}/${"../".repeat(6)}x.txt`;
  assert.ok(Buffer.byteLength(climb) > 1024, `${Buffer.byteLength(climb)} bytes`);
  const back = as(box, "b", "check", climb);
  assert.is(back.code, 3, back.stdout + back.stderr);
  assert.is(as(box, "b", "check", `${join(box.project, long)}/${"../".repeat(6)}free.txt`).code, 0);
});

Take("should refuse a holder given empty or unprintable to check and status too, which work without one", ({ box }) => {
  assert.is(as(box, "a", "take", "x").code, 0);
  for (const verb of [["check", "x"], ["status"], ["status", "x"]]) {
    const given = claims([...verb, "--holder", "", "--dir", box.dir], { cwd: box.project });
    assert.is(given.code, 2, `${verb.join(" ")} --holder "": ${given.stdout}${given.stderr}`);
    assert.match(given.stderr, /^claims: --holder must be 1 to 200 printable characters; got ""\.\n$/);
    const variable = claims([...verb, "--dir", box.dir], { cwd: box.project, env: { CLAIMS_HOLDER: "a\u0007" } });
    assert.is(variable.code, 2, `${verb.join(" ")} with CLAIMS_HOLDER "a\\u0007": ${variable.stdout}${variable.stderr}`);
    assert.match(variable.stderr, /^claims: CLAIMS_HOLDER must be 1 to 200 printable characters/);
  }
  // No holder at all: check answers as anyone (the claim is another's), status lists.
  assert.is(claims(["check", "x", "--dir", box.dir], { cwd: box.project }).code, 3);
  assert.match(claims(["status", "--dir", box.dir], { cwd: box.project }).stdout, /x/);
});

Take("should refuse a glob under a path claimed before it exists, and that path under a glob's holder, as a write there would be", ({ box }) => {
  // ./newpkg may become a directory; its claim covers what is created under it (docs/PROTOCOL.md 5a).
  assert.is(as(box, "a", "take", "./newpkg", "--purpose", "scaffold").code, 0);
  const glob = as(box, "b", "take", "newpkg/*.ts");
  assert.is(glob.code, 3, glob.stdout + glob.stderr);
  assert.match(glob.stdout, /held by a .*scaffold/);
  mkdirSync(join(box.project, "newpkg"));
  assert.is(as(box, "b", "check", "newpkg/x.ts").code, 3, "a write there is refused to the glob's holder too");
  assert.is(as(box, "a", "release", "./newpkg").code, 0);
  rmSync(join(box.project, "newpkg"), { recursive: true });
  assert.is(as(box, "b", "take", "newpkg/*.ts").code, 0);
  assert.is(as(box, "a", "take", "./newpkg").code, 3);
  assert.is(as(box, "c", "take", "./newpkgx", "./other.ts").code, 0, "a path beside the glob's base is free");
});

Take("should keep two names that differ in case apart where the file system does (two files, two claims)", ({ box }) => {
  writeFileSync(join(box.project, "Makefile"), "");
  writeFileSync(join(box.project, "makefile"), "");
  assert.is(as(box, "a", "take", "./Makefile").code, 0);
  const other = as(box, "b", "take", "./makefile", "./MAKEFILE");
  assert.is(other.code, 0, other.stdout + other.stderr);
  assert.match(other.stdout, /^granted .*\/makefile /m);
  assert.match(other.stdout, /^granted .*\/MAKEFILE /m);
});

Take("should note a directory that does not exist yet, and say nothing of one that does", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  const missing = as(box, "a", "take", "./srcc/");
  assert.is(missing.code, 0);
  assert.equal(missing.stderr.trim().split("\n"), [`claims: note: ${join(box.project, "srcc")}/ does not exist yet; the claim covers what is created there (check the path if you meant an existing directory)`]);
  const there = as(box, "b", "take", "./src/");
  assert.is(there.code, 0);
  assert.is(there.stderr, "");
});

Take("should read a relative HOME as the account's home, not from the working directory (nor from /)", ({ box }) => {
  // (Read-only, check: a take would claim in the account's real home.) With a claims directory
  // under ./h, two sessions in two directories each had one of their own.
  writeFileSync(join(box.project, "f.ts"), "");
  const result = claims(["check", "./f.ts", "--holder", "a"], { cwd: box.project, env: { HOME: "h" } });
  assert.is(result.code, 0, result.stderr);
  assert.not.ok(existsSync(join(box.project, "h")), "no claims directory under ./h");
});

Take("should ask for --force for a home directory before reading a broken .claims below it", ({ box }) => {
  mkdirSync(join(box.root, "old"), { recursive: true });
  writeFileSync(join(box.root, "old", ".claims"), JSON.stringify({ ttl: "x" }));
  const result = claims(["take", "~/", "--holder", "a"], { cwd: box.project, env: { HOME: box.root } });
  assert.is(result.code, 2);
  assert.match(result.stderr, /is your home directory: .*--force/);
  const forced = claims(["take", "~/", "--holder", "a", "--force"], { cwd: box.project, env: { HOME: box.root } });
  assert.is(forced.code, 2);
  assert.match(forced.stderr, /"ttl" in .*old\/\.claims/, "with --force, the broken config is what stops it");
});

Take("should refuse a purpose given without --purpose as a second target, a name with spaces, saying both spellings", ({ box }) => {
  const mistaken = as(box, "a", "take", "shared-config", "align the lint rule");
  assert.equal(
    [mistaken.code, mistaken.stderr],
    [2, "claims: The target 'align the lint rule' has spaces and names no file here, so it reads like a purpose: give it with --purpose (claims take shared-config --purpose 'align the lint rule'), or write 'name:align the lint rule' to claim a name with spaces.\n"],
  );
  assert.is(existsSync(box.dir), false, "nothing taken");
  assert.is(as(box, "a", "take", "shared-config", "name:align the lint rule").code, 0, "name: claims it");
  assert.is(as(box, "a", "take", "deploy lock").code, 0, "alone, a name with spaces is a name");
  assert.is(as(box, "a", "take", "x", "deploy lock", "--purpose", "p").code, 0, "so it is beside --purpose");
  writeFileSync(join(box.project, "my notes"), "");
  assert.is(as(box, "a", "take", "x", "my notes").code, 0, "a file of that name is the file");
});

Take("should say a switch of your own claim between exclusive and shared, not a bare granted", ({ box }) => {
  assert.is(as(box, "a", "take", "cfg", "--purpose", "one").code, 0);
  const shared = as(box, "a", "take", "cfg", "--shared", "--purpose", "two");
  assert.is(shared.code, 0, shared.stderr);
  assert.match(shared.stdout, /^granted cfg \(token \d+\) \(already yours, exclusive; now shared\); purpose changed from "one" to "two"\n/);
  const back = as(box, "a", "take", "cfg");
  assert.match(back.stdout, /^granted cfg \(token \d+\) \(already yours, shared; now exclusive\)\n/);
  assert.match(as(box, "a", "take", "fresh", "--shared").stdout, /^granted fresh \(token \d+\)\n/, "a first take says granted alone");
});

Take.run();
