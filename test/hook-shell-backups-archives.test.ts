// The files sed's and perl's in-place backups and tar's options write: a backup suffix the text does
// not fix (`sed -i"$s"`), a suffix whose `*` stands for the file's name as given (`-i 'old/*'`),
// BSD sed's `-i EXT` (`sed -i '' …`, `sed -i .bak …`),
// tar's absolute member names (`-P`) and the files `--remove-files` removes from a `-T` list.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Backups = suite<Context>("claims hook: in-place backups and tar's options");
Backups.before.each((context) => {
  context.box = heldBox();
});
Backups.after.each((context) => context.box.cleanup());

Backups("should judge the backup sed -i and perl -i keep under a suffix the text does not fix as any file", async ({ box }) => {
  file(box, "x.ts", "export const x = 1;\n");
  denies(box, [
    'sed -i"$suffix" s/a/b/ x.ts', // `suffix='../*'` keeps x.ts as ../x.ts: anywhere
    'sed --in-place="$suffix" s/a/b/ x.ts',
    'sed -i"$suffix" -e s/a/b/ x.ts',
    'perl -pi"$suffix" -e s/a/b/ x.ts',
    'perl -i"$suffix" -pe s/a/b/ x.ts',
  ]);
  assert.ok((await writes(box, 'sed -i"$s" s/a/b/ x.ts')).includes("unknown:."));
  // Under the files' own names where the fixed text leaves no room for more: as before.
  allows(box, ["sed -i s/a/b/ x.ts", "sed -i.bak s/a/b/ x.ts", "sed -i -e s/a/b/ x.ts", "perl -pi.orig -e s/a/b/ x.ts", "perl -pi -e s/a/b/ x.ts"]);
  assert.equal(await writes(box, "sed -i.bak s/a/b/ x.ts"), ["x.ts", "x.ts.bak"]);
  assert.equal(await writes(box, 'sed -i".bak$n" s/a/b/ x.ts'), ["glob:.bak*", "glob:x.ts.bak*", "x.ts"]);
});

Backups("should put the file's name as given where a backup suffix holds a `*`", async ({ box }) => {
  file(box, "src/x.ts", "export const x = 1;\n");
  claims(["take", join(box.project, "old/src/x.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "the old copy"]);
  // GNU sed and perl both put src/x.ts where the suffix says from where they run: old/src/x.ts, not src/old/x.ts.
  denies(box, ["sed -i'old/*' s/a/b/ src/x.ts", "perl -pi'old/*' -e s/a/b/ src/x.ts", "sed --in-place='old/*' -e s/a/b/ src/x.ts"]);
  assert.equal(await writes(box, "sed -i'bak/*' s/a/b/ src/x.ts"), ["bak/src/x.ts", "src/x.ts"]);
  assert.equal(await writes(box, "perl -pi'old/*.orig' -e s/a/b/ src/x.ts"), ["old/src/x.ts.orig", "src/x.ts"]);
  allows(box, ["sed -i'bak/*' s/a/b/ src/x.ts", "sed -i'*.orig' s/a/b/ src/x.ts"]);
});

Backups("should read BSD sed's `-i EXT`, the word after a -i of its own, as macOS's sed takes it", async ({ box }) => {
  file(box, "x.ts", "export const x = 1;\n");
  file(box, "u", "export const u = 0;\n");
  denies(box, [
    "sed -i '' 's/a/b/w u.ts' x.ts", // the script after the extension writes u.ts
    "sed -i .ts s/a/b/ u", // u's backup: u.ts
    "sed -i .ts -e s/a/b/ u",
    "sed -E -i .ts 's/a/b/' x.ts u",
  ]);
  assert.equal(await writes(box, "sed -i .bak s/a/b/ x.ts"), ["x.ts", "x.ts.bak"]);
  allows(box, ["sed -i '' s/a/b/ x.ts", "sed -i .bak s/a/b/ x.ts", "sed -i .bak -e s/a/b/ x.ts"]);
  // Any word after it is BSD sed's extension, where the rest then reads as a script: `bak`, and
  // even `-e` (u's backup is u-e); the GNU reading is kept beside it.
  denies(box, ["sed -i bak 's/a/b/w u.ts' x.ts", "sed -i ts -e s/a/b/ u."]);
  assert.ok((await writes(box, "sed -i -e s/a/b/ u")).includes("u-e"), "macOS sed's backup of u");
  assert.ok((await writes(box, "sed -i bak s/a/b/ x.ts")).includes("x.tsbak"));
  // The common GNU form leaves BSD sed a script it cannot read (x.ts), which it stops at: x.ts alone, as before.
  assert.equal(await writes(box, "sed -i s/a/b/ x.ts"), ["x.ts"]);
  assert.equal(await writes(box, "sed -i 's/a/b/;/c/d' x.ts"), ["x.ts"]);
  allows(box, ["sed -i s/a/b/ x.ts", "sed -i -e s/a/b/ x.ts", "sed -i bak s/a/b/ x.ts"]);
});

Backups("should judge tar's absolute member names and the files a -T list names that --remove-files removes", async ({ box }) => {
  file(box, "list", "u.ts\n");
  file(box, "sub/keep.txt", "keep\n");
  denies(box, [
    // An absolute member name (or one with `..`) is written where it points, not under -C's directory.
    "tar -xPf a.tar -C sub",
    "tar --absolute-names -xf a.tar -C sub",
    "tar xPf a.tar -C sub",
    "bsdtar -xPf a.tar -C sub",
    "bsdtar --insecure -xf a.tar -C sub",
    // The names a list holds, which the hook does not read, are removed once archived.
    "tar --remove-files -cf a.tar -T list",
    "tar --remove-files -cf a.tar --files-from=list",
    "tar --remove-files -cf a.tar --files-from list",
    "tar --remove-files -rf a.tar -T list",
    "tar cf a.tar --remove-files -T -",
  ]);
  // Extracting under -C's directory, archiving from a list without removing: as before.
  allows(box, ["tar -xf a.tar -C sub", "tar -cf a.tar -T list", "tar --remove-files -cf a.tar sub/keep.txt"]);
});

Backups("should read zip's -O given a value the text does not fix, or an option the text does not name, as writing any file", async ({ box }) => {
  file(box, "src/b.ts", "export const b = 1;\n");
  denies(box, ['zip -O"$o" a.zip src/b.ts', 'zip --output-file="$o" a.zip src/b.ts', 'zip -"$x" a.zip src/b.ts', 'zip -O "$o" a.zip src/b.ts', "zip -O u.ts a.zip src/b.ts", "zip u.ts src/b.ts"]);
  allows(box, ["zip a.zip src/b.ts", "zip -O out.zip a.zip src/b.ts", "zip -r a.zip src"]);
  assert.ok((await writes(box, 'zip -O"$o" a.zip src/b.ts')).includes("unknown:."), "any file");
  assert.not.ok((await writes(box, "zip -O out.zip a.zip src/b.ts")).includes("unknown:."), "out.zip named");
});

Backups.run();
