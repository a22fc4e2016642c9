// One tree under two mount points (`mount --bind /srv/app /home/me/app`): the same files under two
// paths, each with one link. A claim through one name must stand against a take, a check, a hook
// write and a token through the other (docs/PROTOCOL.md 5a, "Bind mounts"). Real `claims`
// processes, each in a mount namespace of its own holding the bind mount (unshare: root), so
// nothing is mounted on the machine itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { race, run, type Machine } from "./machines.js";

interface Context {
  scratch: string;
  dir: string;
  source: string;
  bound: string;
  machine: Machine;
}

const test = suite<Context>("claims through two mount points of one tree (bind mounts)");
const missing = process.getuid?.() !== 0 ? "it needs root" : undefined;

if (missing) {
  console.log(`\n  SKIPPED: the bind mount suite ${missing} (unshare, mount --bind).\n`);
  test.skip("should hold one file under two mount points", () => undefined);
} else {
  test.before.each((context) => {
    context.scratch = mkdtempSync(join(tmpdir(), "claims-bind-"));
    context.dir = join(context.scratch, "claims");
    context.source = join(context.scratch, "srv", "app");
    context.bound = join(context.scratch, "home", "me", "app");
    mkdirSync(join(context.source, "src"), { recursive: true });
    mkdirSync(context.bound, { recursive: true });
    writeFileSync(join(context.source, "src", "config.ts"), "export const main = 1;\n");
    // A process whose mount namespace shows the source tree at the bound path too, as a session
    // on a machine with the bind mount sees it.
    context.machine = {
      name: "a session seeing both mount points",
      wrap: (command) => ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", 'mount --bind "$0" "$1" && shift && exec "$@"', context.source, context.bound, ...command],
    };
  });
  test.after.each((context) => rmSync(context.scratch, { recursive: true, force: true }));

  test("should refuse a take, a check and a symbol of a file claimed through the other mount point, both ways", async ({ dir, source, bound, machine }) => {
    assert.is((await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "A", "--purpose", "edit config"])).code, 0);
    const other = await run(machine, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B", "--json"]);
    assert.is(other.code, 3, `the same file was granted through the bind mount: ${other.stdout}${other.stderr}`);
    const [refused] = JSON.parse(other.stdout).refused;
    assert.is(refused.holder, "A");
    assert.is(refused.held_target, `${source}/src/config.ts`);
    assert.match(refused.overlap, "bind mount");
    assert.is((await run(machine, ["check", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B"])).code, 3);
    assert.is((await run(machine, ["take", `${bound}/src/config.ts#main`, "--dir", dir, "--holder", "B"])).code, 3);
    // The other way round: a claim through the bound name stands against the source's.
    assert.is((await run(machine, ["take", `${bound}/src/new.ts`, "--dir", dir, "--holder", "B"])).code, 0);
    assert.is((await run(machine, ["take", `${source}/src/new.ts`, "--dir", dir, "--holder", "A"])).code, 3);
  });

  test("should refuse a directory or glob that holds the claimed file through the other mount point", async ({ scratch, dir, source, bound, machine }) => {
    assert.is((await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "A"])).code, 0);
    // The bound tree, a glob in it, and a directory above the bound mount point, which holds it.
    for (const target of [`${bound}/`, `${bound}/src/*.ts`, `${join(scratch, "home")}/`]) {
      const taken = await run(machine, ["take", target, "--dir", dir, "--holder", "B", "--json"]);
      assert.is(taken.code, 3, `${target} was granted over a file it holds through the bind mount: ${taken.stdout}${taken.stderr}`);
    }
    // A directory above the source holds the bound tree's files: a claim through the bound name is in its way.
    assert.is((await run(machine, ["release", `${source}/src/config.ts`, "--dir", dir, "--holder", "A"])).code, 0);
    assert.is((await run(machine, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B"])).code, 0);
    assert.is((await run(machine, ["take", `${join(scratch, "srv")}/`, "--dir", dir, "--holder", "A"])).code, 3);
  });

  test("should deny a hook write of the claimed file through the other mount point", async ({ dir, source, bound, machine }) => {
    assert.is((await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "A", "--purpose", "edit config"])).code, 0);
    const event = { session_id: "bound", hook_event_name: "PreToolUse", cwd: bound, tool_name: "Edit", tool_input: { file_path: `${bound}/src/config.ts`, old_string: "1", new_string: "2" } };
    const withInput: Machine = { name: machine.name, wrap: (command) => machine.wrap(["sh", "-c", 'printf %s "$0" | exec "$@"', JSON.stringify(event), ...command]) };
    const hooked = await run(withInput, ["hook", "claude", "--dir", dir]);
    assert.is(hooked.code, 0, hooked.stderr);
    const decision = JSON.parse(hooked.stdout).hookSpecificOutput;
    assert.is(decision.permissionDecision, "deny", `the write through the bind mount was let through: ${hooked.stdout}`);
    assert.match(decision.permissionDecisionReason, "edit config");
  });

  test("should grant exactly one of two takes racing for one file through its two mount points", async ({ scratch, dir, source, bound, machine }) => {
    for (let round = 0; round < 12; round += 1) {
      const name = `src/race-${round}.ts`;
      const results = await race(scratch, [
        { machine, args: ["take", `${source}/${name}`, "--dir", dir, "--holder", "A"] },
        { machine, args: ["take", `${bound}/${name}`, "--dir", dir, "--holder", "B"] },
      ]);
      const codes = results.map((result) => result.code).sort();
      assert.equal(codes, [0, 3], `round ${round}: ${results.map((result) => `${result.code} ${result.stdout}${result.stderr}`).join(" | ")}`);
    }
  });

  test("should issue a token through one mount point above those issued through the other", async ({ dir, source, bound, machine }) => {
    const tokenOf = async (target: string, holder: string) => {
      const taken = await run(machine, ["take", target, "--dir", dir, "--holder", holder, "--json"]);
      assert.is(taken.code, 0, taken.stdout + taken.stderr);
      return JSON.parse(taken.stdout).granted[0].token as number;
    };
    const first = await tokenOf(`${source}/src/config.ts`, "A");
    assert.is((await run(machine, ["release", `${source}/src/config.ts`, "--dir", dir, "--holder", "A"])).code, 0);
    const second = await tokenOf(`${bound}/src/config.ts`, "B");
    assert.ok(second > first, `a token ${second} through the bind mount is not above ${first}, issued for the same file`);
  });

  test("should keep the queue's order across the two names, and show the holder through either", async ({ dir, source, bound, machine }) => {
    assert.is((await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "A"])).code, 0);
    assert.is((await run(machine, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B", "--queue"])).code, 6);
    const status = JSON.parse((await run(machine, ["status", `${bound}/src/config.ts`, "--dir", dir, "--json"])).stdout);
    assert.equal(status.claims.map((claim: { holder: string }) => claim.holder), ["A"], "status through the bound name shows the holder");
    // A direct taker through the source's name does not jump the waiter queued through the other.
    const jumped = await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "C", "--json"]);
    assert.ok(JSON.parse(jumped.stdout).refused.some((refusal: { holder: string; queued?: true }) => refusal.holder === "B" && refusal.queued));
    const released = JSON.parse((await run(machine, ["release", `${source}/src/config.ts`, "--dir", dir, "--holder", "A", "--json"])).stdout);
    assert.equal(released.handed_to, [{ target: `${bound}/src/config.ts`, holder: "B" }]);
    assert.is((await run(machine, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "C"])).code, 3, "B holds it now");
  });

  test("should take again, beat, hand over and release a claim through the other mount point as the claim it is", async ({ scratch, dir, source, bound, machine }) => {
    const claimed = `${source}/src/config.ts`;
    assert.is((await run(machine, ["take", claimed, "--dir", dir, "--holder", "A", "--ttl", "60"])).code, 0);
    const beat = await run(machine, ["beat", `${bound}/src/config.ts`, "--dir", dir, "--holder", "A", "--json"]);
    assert.is(beat.code, 0, `a beat through the bound name was not the holder's claim: ${beat.stdout}${beat.stderr}`);
    assert.equal(JSON.parse(beat.stdout).renewed, [claimed]);
    const handed = await run(machine, ["handover", `${bound}/src/config.ts`, "--to", "B", "--dir", dir, "--holder", "A", "--json"]);
    assert.is(handed.code, 0, handed.stdout + handed.stderr);
    assert.is((await run(machine, ["take", claimed, "--dir", dir, "--holder", "C"])).code, 3, "B holds it now");
    const released = await run(machine, ["release", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B", "--json"]);
    assert.is(released.code, 0, released.stdout + released.stderr);
    assert.equal(JSON.parse(released.stdout).released, [claimed]);
    assert.is((await run(machine, ["take", claimed, "--dir", dir, "--holder", "C"])).code, 0, "released: free for the next");
    // The holder's own claim through the other name, with another actor queued for it: a re-take, by the hook's edit too.
    assert.is((await run(machine, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "D", "--queue"])).code, 6);
    const retaken = await run(machine, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "C", "--purpose", "still mine", "--json"]);
    assert.is(retaken.code, 0, `the holder was refused its own file through the bound name: ${retaken.stdout}`);
    assert.equal(JSON.parse(retaken.stdout).granted.map((claim: { target: string }) => claim.target), [claimed]);
    const event = { session_id: "s9", hook_event_name: "PreToolUse", cwd: bound, tool_name: "Edit", tool_input: { file_path: `${bound}/src/config.ts`, old_string: "1", new_string: "2" } };
    assert.is((await run(machine, ["handover", claimed, "--to", "claude-s9", "--dir", dir, "--holder", "C"])).code, 0);
    const withInput: Machine = { name: machine.name, wrap: (command) => machine.wrap(["sh", "-c", 'printf %s "$0" | exec "$@"', JSON.stringify(event), ...command]) };
    const hooked = await run(withInput, ["hook", "claude", "--dir", dir]);
    assert.is(hooked.stdout.includes('"deny"'), false, `the holder's own edit through the bound name was denied: ${hooked.stdout}`);
    assert.is((await run(machine, ["release", claimed, "--dir", dir, "--holder", "claude-s9"])).code, 0);
    assert.is((await run(machine, ["release", `${bound}/src/config.ts`, "--dir", dir, "--holder", "D"])).code, 0, "the queue handed it to D");
    // A tree that holds the other mount point is not the claim on it: a beat of /srv/ is no beat of /home/me/app/.
    assert.is((await run(machine, ["take", `${bound}/`, "--dir", dir, "--holder", "E"])).code, 0);
    const part = await run(machine, ["beat", `${scratch}/srv/`, "--dir", dir, "--holder", "E", "--json"]);
    assert.equal(JSON.parse(part.stdout).renewed, [], part.stdout);
  });

  test("should find the mount on top where a bind hides an earlier mount, or was moved there", async ({ scratch, dir }) => {
    const src = join(scratch, "src");
    mkdirSync(join(src, "b"), { recursive: true });
    writeFileSync(join(src, "b", "f.ts"), "");
    for (const place of ["x/a/b", "stage", "p"]) mkdirSync(join(scratch, place), { recursive: true });
    // A tmpfs at x/a/b, then the source bound over x/a: x/a/b/f.ts is src/b/f.ts. A tmpfs at p, and
    // a bind moved onto it (`mount --move`), which the table lists before the tmpfs it covers.
    const script = 'mount -t tmpfs inner "$0/x/a/b" && mount --bind "$0/src" "$0/x/a" && mount --bind "$0/src" "$0/stage" && mount -t tmpfs moved "$0/p" && mount --move "$0/stage" "$0/p" && exec "$@"';
    const machine: Machine = { name: "hidden and moved mounts", wrap: (command) => ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", script, scratch, ...command] };
    assert.is((await run(machine, ["take", join(src, "b", "f.ts"), "--dir", dir, "--holder", "A"])).code, 0);
    for (const path of [join(scratch, "x", "a", "b", "f.ts"), join(scratch, "p", "b", "f.ts")]) {
      const other = await run(machine, ["take", path, "--dir", dir, "--holder", "B", "--json"]);
      assert.is(other.code, 3, `${path} was granted beside the claim on the same file: ${other.stdout}${other.stderr}`);
    }
  });

  test("should keep two trees apart where nothing binds them", async ({ dir, source, bound }) => {
    // Without the bind mount the two paths are two directories.
    const plain: Machine = { name: "this machine", wrap: (command) => command };
    assert.is((await run(plain, ["take", `${source}/src/config.ts`, "--dir", dir, "--holder", "A"])).code, 0);
    assert.is((await run(plain, ["take", `${bound}/src/config.ts`, "--dir", dir, "--holder", "B"])).code, 0);
  });
}

test.run();
