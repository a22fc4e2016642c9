// A take of several targets that finds a later one held after it got the earlier ones gives those
// back and answers REFUSED: it was granted nothing, so nothing of it may linger. The writer in
// between is one that ignores the take lock (a shell script, PROTOCOL.md section 10); it is put
// there deterministically, in a real `claims` process: a module preloaded into that process writes
// the script's claim on `b` just before the take links its own claim to b.json.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, claimsAsync, readJson, sandbox, type Sandbox } from "./helpers.js";

// Runs before the CLI; the bundles call node:fs's linkSync through the module object, so this
// wrapper sees the take's link(2) of each claim name.
const INTRUDER_MODULE = `
const fs = require("node:fs");
const link = fs.linkSync;
let done = false;
fs.linkSync = function (from, to) {
  if (!done && String(to).endsWith("/" + process.env.INTRUDE_ON)) {
    done = true;
    const stamp = new Date().toISOString().replace(/\\.\\d+Z$/, "Z");
    const claim = { target: "b", holder: "script", purpose: "written without the take lock", taken_at: stamp, heartbeat_at: stamp };
    fs.writeFileSync(to, JSON.stringify(claim) + "\\n", { flag: "wx" });
  }
  return link.apply(this, arguments);
};
`;

const GiveBack = suite<{ box: Sandbox; run: (args: string[], env?: Record<string, string>) => { code: number; body: any } }>(
  "a multi-target take that gives back what it got",
);
GiveBack.before.each((context) => {
  context.box = sandbox();
  const preload = join(context.box.root, "intruder.cjs");
  writeFileSync(preload, INTRUDER_MODULE);
  context.run = (args, env = {}) => {
    if (env.INTRUDE_ON !== undefined) env = { ...env, NODE_OPTIONS: `--require=${preload}` };
    const result = claims([...args, "--dir", context.box.dir, "--json"], { cwd: context.box.project, env });
    return { code: result.code, body: result.stdout === "" ? undefined : JSON.parse(result.stdout) };
  };
});
GiveBack.after.each((context) => context.box.cleanup());

GiveBack("should refuse when a writer ignoring the take lock takes a later target, and keep nothing of the earlier one", ({ box, run }) => {
  const taken = run(["take", "a", "b", "--holder", "me", "--purpose", "both"], { INTRUDE_ON: "b.json" });
  assert.is(taken.code, 3, "refused: b was taken in between");
  assert.equal(taken.body.granted, []);
  assert.equal(taken.body.refused.map((holding: { target: string; holder: string }) => [holding.target, holding.holder]), [["b", "script"]]);
  assert.not.ok(existsSync(join(box.dir, "a.json")), "a was given back");
  assert.is(readJson(join(box.dir, "b.json")).holder, "script");
  assert.equal(readdirSync(box.dir).filter((name) => name.startsWith(".held-")), [], "no marker says me was granted a");
});

GiveBack("should leave nothing for a later beat or release without targets to report lost", ({ run }) => {
  assert.is(run(["take", "a", "b", "--holder", "me"], { INTRUDE_ON: "b.json" }).code, 3);
  const beat = run(["beat", "--holder", "me"]);
  assert.is(beat.code, 0, `beat: ${JSON.stringify(beat.body)}`);
  assert.equal(beat.body.lost, []);
  const released = run(["release", "--holder", "me"]);
  assert.is(released.code, 0, `release: ${JSON.stringify(released.body)}`);
  assert.equal(released.body.lost, []);
});

GiveBack("should keep the marker of a target the holder already held before the take", ({ box, run }) => {
  assert.is(run(["take", "a", "--holder", "me"]).code, 0);
  assert.is(run(["take", "a", "b", "--holder", "me"], { INTRUDE_ON: "b.json" }).code, 3);
  assert.is(readJson(join(box.dir, "a.json")).holder, "me", "a renewed, not given back");
  const beat = run(["beat", "--holder", "me"]);
  assert.is(beat.code, 0);
  assert.equal(beat.body.renewed, ["a"]);
});

GiveBack("should keep the holder's claim in the other mode, and its marker, when a take switching it is given back", async ({ box, run }) => {
  assert.is(run(["take", "a", "--shared", "--ttl", "1", "--holder", "me"]).code, 0);
  const shared = readdirSync(box.dir).find((name) => name.startsWith("a+") && name.endsWith(".json")) as string;
  // The exclusive a is written, then b is found taken: a's exclusive claim goes back, its shared one stays.
  assert.is(run(["take", "a", "b", "--holder", "me"], { INTRUDE_ON: "b.json" }).code, 3);
  assert.not.ok(existsSync(join(box.dir, "a.json")), "the exclusive a was given back");
  assert.is(readJson(join(box.dir, shared)).holder, "me", "the shared a the holder had before stays");
  // Lapsed and swept, it is reported lost, as any claim the holder was granted.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  assert.equal(run(["sweep"]).body.removed, ["a"]);
  const beat = run(["beat", "--holder", "me"]);
  assert.is(beat.code, 4, `beat: ${JSON.stringify(beat.body)}`);
  assert.equal(beat.body.lost, ["a"]);
});

GiveBack("should keep the holder's claim in the other mode while a wait switching it waits, and after it times out", async ({ box, run }) => {
  assert.is(run(["take", "a", "--holder", "me", "--purpose", "edit a"]).code, 0);
  assert.is(run(["take", "b", "--holder", "other"]).code, 0);
  const waiting = claimsAsync(["take", "a", "b", "--shared", "--wait", "3", "--holder", "me", "--dir", box.dir, "--json"], { cwd: box.project });
  const queued = () => readdirSync(box.dir).some((name) => name.startsWith(".queue-"));
  for (let i = 0; i < 200 && !queued(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(queued(), "the waiter queued for b");
  // me still holds a exclusively while it waits for b: a shared take of a by another is refused.
  const meanwhile = run(["take", "a", "--shared", "--holder", "x"]);
  const waited = await waiting;
  assert.is(meanwhile.code, 3, `a shared take of a, while me waited, got ${JSON.stringify(meanwhile.body)}`);
  assert.is(waited.code, 5, waited.stdout + waited.stderr);
  assert.equal([readJson(join(box.dir, "a.json")).holder, readJson(join(box.dir, "a.json")).purpose], ["me", "edit a"], "the exclusive a the holder had before stays");
  assert.equal(readdirSync(box.dir).filter((name) => name.startsWith("a+")), [], "the shared a the wait got was given back");
});

GiveBack.run();
