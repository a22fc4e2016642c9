// Commands git, tar and zip run, and files git's plumbing writes, named by their options: git's
// `--upload-pack`, `--receive-pack`, `--exec`, grep's `-O`, difftool's `-x`; tar's
// `--checkpoint-action=exec=` and `-I`, zip's `-TT`; fast-export's and fast-import's marks,
// mailinfo's files, credential-store's file, diff-tree's --output. Another session holds u.ts; session s2 runs each
// command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Named = suite<Context>("claims hook: commands and files git, tar and zip options name");
Named.before.each((context) => {
  context.box = heldBox();
  spawnSync("git", ["init", "-q", context.box.project]);
});
Named.after.each((context) => context.box.cleanup());

Named("should read the commands git's subcommand options name as scripts", async ({ box }) => {
  file(box, "tools/up.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  for (const command of [
    "git ls-remote --upload-pack='touch u.ts; git-upload-pack' .",
    "git ls-remote --upload-pack 'touch u.ts; git-upload-pack' .",
    "git ls-remote --exec=tools/up.sh .",
    "git fetch --upload-pack='touch u.ts; git-upload-pack' .",
    "git fetch --upload='touch u.ts; git-upload-pack' .", // an abbreviation git takes
    "git pull --upload-pack=tools/up.sh . main",
    "git clone -u tools/up.sh . x",
    "git clone --upload-pack=tools/up.sh . x",
    "git fetch-pack --upload-pack='touch u.ts; git-upload-pack' . HEAD",
    "git push --receive-pack='touch u.ts; git-receive-pack' . HEAD:refs/heads/x",
    "git send-pack --receive-pack='touch u.ts; git-receive-pack' . HEAD:refs/heads/y",
    "git send-pack --exec=tools/up.sh . HEAD",
    "git archive --remote=. --exec='touch u.ts; git-upload-archive' HEAD",
    "git grep --open-files-in-pager='touch u.ts #' export",
    "git grep -O'touch u.ts #' export",
    "git grep -nOtools/up.sh export",
    "git difftool -y -x 'touch u.ts #'",
    "git difftool -yx 'touch u.ts #'",
    "git difftool -y --extcmd='touch u.ts #'",
    "git send-email --to-cmd=tools/up.sh x.patch",
    "git -c sendemail.tocmd=tools/up.sh send-email x.patch",
    "git -c sendemail.work.cccmd='rm u.ts #' send-email x.patch",
    "git -C . fetch --upload-pack='rm u.ts #' origin",
    // A command the text does not fix: any file.
    'git fetch --upload-pack "$cmd" origin',
    'git grep -O"$pager" export',
    'git push --receive-pack="$x" origin',
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.ok((await writes(box, "git ls-remote --upload-pack='touch u.ts; git-upload-pack' .")).includes("u.ts"), "read as its script, not as any file");
  assert.ok((await writes(box, "git grep -O'touch u.ts #' export")).includes("u.ts"));
  // The read-only forms: as before.
  for (const command of ["git fetch origin", "git ls-remote origin", "git grep foo", "git grep -n -e foo", "git grep -O export", "git push -u origin main", "git fetch --upload-pack=git-upload-pack origin"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Named("should judge the files git's plumbing writes by its options and operands", async ({ box }) => {
  for (const command of [
    "git fast-export --export-marks=u.ts HEAD",
    "git fast-export --export-marks u.ts HEAD",
    "git fast-import --export-marks=u.ts < /dev/null",
    "git fast-import --export-pack-edges=u.ts < /dev/null",
    "git fast-import --allow-unsafe-features < s.fi", // the stream may name marks files
    "git mailinfo u.ts patch < mail.eml",
    "git mailinfo -k msg u.ts < mail.eml",
    "git credential-store --file=u.ts store < cred.txt",
    "git credential-store --file u.ts erase < cred.txt",
    "git -c credential.helper='store --file=u.ts' fetch", // git's credential-store, given its option
    "git diff-tree -p --output=u.ts HEAD",
    "git diff-files --output=u.ts",
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "git fast-export --export-marks=u.ts HEAD"), ["u.ts"]);
  assert.equal(await writes(box, "git mailinfo m.txt p.txt < mail.eml"), ["m.txt", "p.txt"]);
  // Reading them: as before.
  for (const command of ["git fast-export --import-marks=u.ts HEAD", "git credential-store --file=u.ts get < cred.txt", "git fast-export HEAD", "git diff-tree -p HEAD", "git -c credential.helper=store fetch"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Named("should read the commands tar's and zip's options name as scripts", async ({ box }) => {
  file(box, "t/a.ts", "export const a = 1;\n");
  file(box, "tools/z.sh", "#!/bin/sh\nrm -f u.ts\ngzip\n", 0o755);
  for (const command of [
    "tar -cf out/x.tar --checkpoint=1 --checkpoint-action=exec='touch u.ts' t",
    "tar -cf out/x.tar --checkpoint=1 --checkpoint-action exec='touch u.ts' t",
    "tar -tvf a.tar --checkpoint=1 --checkpoint-action=exec='touch u.ts'", // a listing runs it too
    "tar -cf out/y.tar -I 'touch u.ts; gzip' t",
    "tar -cf out/y.tar --use-compress-program='rm -f u.ts; gzip' t",
    "tar --use-compress-program=tools/z.sh -xf a.tgz -C out/x",
    "tar cIf tools/z.sh out/y.tar t", // old-style letters, their values in order
    "tar -C t -cf out/x.tar --checkpoint=1 --checkpoint-action=exec='touch ../u.ts' .", // after -C, there
    "tar -cML 1 -F 'rm u.ts' -f out/x.tar t",
    "gtar -cf out/y.tar -I 'touch u.ts; gzip' t",
    "zip -q -T -TT 'touch u.ts #' out/a.zip t/a.ts",
    "zip -q -T -TT='touch u.ts #' out/a.zip t/a.ts",
    "zip -qTTtools/z.sh out/a.zip t/a.ts",
    "zip -T --unzip-command 'rm u.ts {}' out/a.zip t/a.ts",
    "zip -T -TT 'touch x' u.ts t/a.ts", // the archive, which -TT's value no longer stands for
    // A command the text does not fix: any file.
    'tar -cf out/y.tar -I "$prog" t',
    'tar -cf out/y.tar --checkpoint-action="exec=$cmd" t',
    'zip -T -TT"$cmd" out/a.zip t/a.ts',
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.ok((await writes(box, "tar -tvf a.tar --checkpoint=1 --checkpoint-action=exec='touch u.ts'")).includes("u.ts"), "read as its script, not as any file");
  assert.equal(await writes(box, "zip -q -T -TT 'touch y.ts #' out/a.zip t/a.ts"), ["out/a.zip", "y.ts"]);
  // The common forms: as before.
  for (const command of [
    "tar -tvf a.tar",
    "tar -xzf a.tar.gz -C out/x",
    "tar -cf out/y.tar.zst -I 'zstd -19' t",
    "tar --use-compress-program=pigz -cf out/y.tgz t",
    "tar -cf out/x.tar --checkpoint=100 --checkpoint-action=dot t",
    "zip -T out/a.zip t/a.ts",
    "zip -qr out/a.zip t",
  ]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Named("should read a word of tar's the text does not fix, where it may be an option, as any file", async ({ box }) => {
  file(box, "t/a.ts", "export const a = 1;\n");
  // Any option at all: `-x` with `-C /` extracts anywhere, `-I cmd` runs a command, `--index-file=f` writes f.
  for (const command of [
    'tar "$opt" -f a.tar', // the first word: options, old-style letters or dashed
    "tar $opts -f a.tar",
    "tar -$x f a.tar",
    'tar "$mode"f a.tar',
    'tar -f a.tar "$m"', // no mode in the text: the word that gives one
    "tar -f a.tar $opts",
    'tar -t "-$x" -f a.tar', // a dash, the rest not fixed
    'tar -tf a.tar --"$long"',
    'tar -tf a.tar --index-file="$x"',
    'tar -c --file="$f" t',
    'tar -xf a.tar -C"$d"',
    'bsdtar "$opt" -f a.tar',
  ]) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // The mode fixed, an archive's name or a member's unfixed, an option whose value names nothing written: as before.
  for (const command of [
    "tar -tf a.tar",
    'tar tf "$f"',
    'tar -tvf "$f"',
    'tar -tf a.tar "$m"',
    'tar -czf out/x.tgz "$dir"',
    'tar -cf out/x.tar --exclude="$p" t',
    'tar -cf out/x.tar -X"$f" t',
    'tar -tf a.tar -- "-$x"', // after `--`, a name
  ]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Named("should pass git's read-only options the gate once took for ones that run a command", async () => {
  const { mayWrite } = await import("../src/hooks/shell-gate.js");
  // The gate's git patterns were case-blind (grep's -o for -O) and took --u for --upload-pack (--unshallow).
  for (const command of ["git grep -o foo", "git grep -no foo src", "git fetch --unshallow", "git fetch --update-shallow origin", "git push --recurse-submodules=no"]) assert.is(mayWrite(command), false, command);
  for (const command of ["git grep -O'touch u.ts' x", "git fetch --upl='touch u.ts' .", "git push --rece='touch u.ts' . HEAD", "git clone -u 'touch u.ts' . d"]) assert.is(mayWrite(command), true, command);
});

Named.run();
