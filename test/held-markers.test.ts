// A held marker (docs/PROTOCOL.md 8) is what lets a holder's beat without targets report a claim it
// lost. Sweep removes a marker older than 7 days whose holder no longer holds its claim, so a claim
// renewed all along must keep its marker young: a session that beat its claim for over a week, then
// stalled past the TTL and had it taken over, must still hear LOST. Real processes throughout.
import { readdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, iso, readJson, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox };
const Markers = suite<Context>("held markers of claims renewed for over a week");
Markers.before.each((context) => {
  context.box = sandbox();
});
Markers.after.each((context) => context.box.cleanup());

const as = (box: Sandbox, holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], { cwd: box.project });
const markers = (box: Sandbox) => readdirSync(box.dir).filter((name) => name.startsWith(".held-"));
const EIGHT_DAYS_AGO = new Date(Date.now() - 8 * 24 * 3600_000);

/** A's claim as a holder that stopped beating two hours ago left it: stale (heartbeat and file alike). */
function lapse(box: Sandbox, fileName: string): void {
  const claim = readJson(join(box.dir, fileName));
  rmSync(join(box.dir, fileName)); // not written in place: the claim file is also its token counter
  writeClaimFile(box.dir, fileName, { ...claim, heartbeat_at: iso(Date.now() - 2 * 3600_000) });
}

Markers("should report LOST a claim beaten for over a week, then taken over after it lapsed and a sweep ran", ({ box }) => {
  assert.is(as(box, "a", "take", "deploy-lock").code, 0);
  assert.is(as(box, "a", "beat").code, 0); // the marker's grant id is spent: later beats only renew
  const [marker] = markers(box);
  assert.ok(marker);
  // Taken eight days ago, beaten since (the marker's own mtime is its first write's).
  utimesSync(join(box.dir, marker as string), EIGHT_DAYS_AGO, EIGHT_DAYS_AGO);
  assert.equal(JSON.parse(as(box, "a", "beat", "--json").stdout).renewed, ["deploy-lock"]);
  lapse(box, "deploy-lock.json");
  assert.is(as(box, "b", "take", "deploy-lock").code, 0, "taken over");
  assert.is(claims(["sweep", "--dir", box.dir]).code, 0);
  const beaten = as(box, "a", "beat", "--json");
  assert.is(beaten.code, 4, beaten.stdout + beaten.stderr);
  assert.equal(JSON.parse(beaten.stdout).lost, ["deploy-lock"]);
});

Markers("should keep the marker of a claim re-taken (renewed) for over a week, as one beaten", ({ box }) => {
  assert.is(as(box, "a", "take", "deploy-lock").code, 0);
  assert.is(as(box, "a", "take", "deploy-lock").code, 0); // the marker's grant id is spent: later re-takes only renew
  const [marker] = markers(box);
  utimesSync(join(box.dir, marker as string), EIGHT_DAYS_AGO, EIGHT_DAYS_AGO);
  assert.is(as(box, "a", "take", "deploy-lock").code, 0, "a re-take renews it (as the MCP renew_file_reservations does)");
  lapse(box, "deploy-lock.json");
  assert.is(as(box, "b", "take", "deploy-lock").code, 0);
  assert.is(claims(["sweep", "--dir", box.dir]).code, 0);
  const released = JSON.parse(as(box, "a", "release", "--json").stdout);
  assert.equal(released.lost, ["deploy-lock"], "release of everything reports it lost");
});

Markers("should still sweep the marker of a claim lost and not renewed for over a week", ({ box }) => {
  assert.is(as(box, "a", "take", "deploy-lock").code, 0);
  assert.is(as(box, "a", "beat").code, 0);
  const [marker] = markers(box);
  utimesSync(join(box.dir, marker as string), EIGHT_DAYS_AGO, EIGHT_DAYS_AGO);
  lapse(box, "deploy-lock.json");
  assert.is(as(box, "b", "take", "deploy-lock").code, 0);
  const swept = JSON.parse(claims(["sweep", "--dir", box.dir, "--json"]).stdout);
  assert.equal(swept.debris, [marker]);
});

Markers.run();
