// What a target names under the other mount points of its file system, from a mount table (the
// rule of src/targets/bind-mounts.ts). Real bind mounts, with real processes taking through both
// names, are in test/netfs/bind-mounts.netfs.ts (they need root).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { boundAliases, type Mount } from "../src/targets/bind-mounts.js";
import { shapeOf } from "../src/targets/overlap.js";

const test = suite("other names of a target through bind mounts");

const root: Mount = { id: "1", parent: "0", device: "254:0", root: "/", point: "/" };
const proc: Mount = { id: "2", parent: "1", device: "0:21", root: "/", point: "/proc" };
/** `mount --bind /srv/app /home/me/app` */
const bound: Mount = { id: "3", parent: "1", device: "254:0", root: "/srv/app", point: "/home/me/app" };
const aliases = (target: string, mounts: Mount[]) => boundAliases(shapeOf(target), mounts).map((shape) => shape.canonical);

test("should find no other name where no file system is mounted twice, or the table is unknown", () => {
  assert.equal(aliases("/srv/app/x.ts", [root, proc]), []);
  assert.equal(aliases("/srv/app/x.ts", [root, proc, { id: "9", parent: "1", device: "0:40", root: "/", point: "/srv" }]), []);
  assert.equal(boundAliases(shapeOf("/srv/app/x.ts"), undefined), []);
  assert.equal(aliases("config", [root, bound]), [], "a name is no path");
});

test("should name a file, a symbol and a directory under the other mount point, both ways", () => {
  assert.equal(aliases("/srv/app/src/x.ts", [root, proc, bound]), ["/home/me/app/src/x.ts"]);
  assert.equal(aliases("/home/me/app/src/x.ts", [root, proc, bound]), ["/srv/app/src/x.ts"]);
  assert.equal(aliases("/home/me/app/src/x.ts#main", [root, bound]), ["/srv/app/src/x.ts#main"]);
  assert.equal(aliases("/home/me/app/src/", [root, bound]), ["/srv/app/src/"]);
  assert.equal(aliases("/home/me/app", [root, bound]), ["/srv/app"], "the mount point itself");
  assert.equal(aliases("/srv/other/x.ts", [root, bound]), [], "outside what the bind mount shows");
});

test("should name a glob by its base under the other mount point", () => {
  assert.equal(aliases("/home/me/app/src/**/*.ts", [root, bound]), ["/srv/app/src/**/*.ts"]);
  assert.equal(aliases("/srv/app/*.ts", [root, bound]), ["/home/me/app/*.ts"]);
});

test("should name, for a tree, the other mount points that show part of it", () => {
  // /srv/ holds /srv/app, which /home/me/app shows.
  assert.equal(aliases("/srv/", [root, bound]), ["/home/me/app/"]);
  assert.equal(aliases("/srv/**", [root, bound]), ["/home/me/app/"]);
  // /home/me/ holds the mount point /home/me/app, whose files are /srv/app's.
  assert.equal(aliases("/home/me/", [root, bound]), ["/srv/app/"]);
  // A symbol is no tree.
  assert.equal(aliases("/srv/app#x", [root, bound]), ["/home/me/app#x"]);
});

test("should name only the same place when asked for what a holder may have claimed the target itself by", () => {
  const same = (target: string, mounts: Mount[]) => boundAliases(shapeOf(target), mounts, true).map((shape) => shape.canonical);
  assert.equal(same("/srv/app/src/x.ts", [root, bound]), ["/home/me/app/src/x.ts"]);
  assert.equal(same("/home/me/app/src/", [root, bound]), ["/srv/app/src/"]);
  assert.equal(same("/srv/app/*.ts", [root, bound]), ["/home/me/app/*.ts"]);
  // Not a part of the tree shown elsewhere: beat /srv/ does not renew a claim on /home/me/app/.
  assert.equal(same("/srv/", [root, bound]), []);
  assert.equal(same("/home/me/", [root, bound]), []);
});

test("should follow a file system's subvolumes and a top mounted apart (btrfs)", () => {
  const system: Mount = { id: "1", parent: "0", device: "0:31", root: "/@", point: "/" };
  const home: Mount = { id: "2", parent: "1", device: "0:31", root: "/@home", point: "/home" };
  const top: Mount = { id: "3", parent: "1", device: "0:31", root: "/", point: "/mnt/pool" };
  assert.equal(aliases("/home/me/x.ts", [system, home, top]), ["/mnt/pool/@home/me/x.ts"]);
  assert.equal(aliases("/mnt/pool/@home/me/x.ts", [system, home, top]), ["/home/me/x.ts"]);
  assert.equal(aliases("/etc/hosts", [system, home, top]), ["/mnt/pool/@/etc/hosts"]);
  // Without the top mounted, two subvolumes share no file.
  assert.equal(aliases("/home/me/x.ts", [system, home]), []);
});

test("should take the mount on top where the path meets it, by ids, not the table's order, and escape what a target would", () => {
  const hidden: Mount = { id: "5", parent: "1", device: "254:0", root: "/var/old", point: "/data" };
  const over: Mount = { id: "6", parent: "5", device: "0:50", root: "/", point: "/data" };
  assert.equal(aliases("/data/x", [root, hidden, over]), [], "/data now shows another file system");
  // `mount --move` lists the mount on top first: its parent says it is on top.
  assert.equal(aliases("/data/x", [root, { ...over, parent: "1" }, { ...hidden, parent: "6" }]), ["/var/old/x"]);
  // A tmpfs at /x/a/b, then `mount --bind /srv /x/a` over it: /x/a/b/f.ts is /srv/b/f.ts.
  const deeper: Mount = { id: "7", parent: "1", device: "0:60", root: "/", point: "/x/a/b" };
  const shorter: Mount = { id: "8", parent: "1", device: "254:0", root: "/srv", point: "/x/a" };
  assert.equal(aliases("/x/a/b/f.ts", [root, deeper, shorter]), ["/srv/b/f.ts"]);
  assert.equal(aliases("/srv/b/f.ts", [root, deeper, shorter]), ["/x/a/b/f.ts"]);
  const spaced: Mount = { id: "4", parent: "1", device: "254:0", root: "/srv/my app", point: "/home/me/a[1]" };
  assert.equal(aliases("/srv/my app/x.ts", [root, spaced]), ["/home/me/a\\[1\\]/x.ts"]);
});

test.run();
