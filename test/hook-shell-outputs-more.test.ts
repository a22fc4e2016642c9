// Tools that write a file their options or operands name, or run a command that may write any:
// each must reach the walk past the gate, and be read there. Another session holds u.ts; session
// s2 runs each command through the Claude hook of the real CLI.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Outputs = suite<Context>("claims hook: more tools' output files");
Outputs.before.each((context) => {
  context.box = heldBox();
});
Outputs.after.each((context) => context.box.cleanup());

/** What each command writes, as the walk reads it. */
async function reads(box: Sandbox, cases: Array<[string, string[]]>): Promise<void> {
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
}

Outputs("should read the HSTS and Alt-Svc caches curl keeps, and wget's --hsts-file", async ({ box }) => {
  await reads(box, [
    ["curl -s --hsts hsts.txt https://example.com/", ["hsts.txt"]],
    ["curl --alt-svc=alt.txt -o page.html https://example.com/", ["alt.txt", "page.html"]],
    ["wget -O page.html --hsts-file=h.txt https://example.com/", ["h.txt", "page.html"]],
  ]);
  denies(box, ["curl -s --hsts u.ts file:///etc/hostname", "curl -s --alt-svc u.ts file:///etc/hostname", "curl --alt-svc=u.ts https://example.com/"]);
  allows(box, ["curl -s https://example.com/", "curl -s --hsts src/h.txt https://example.com/"]);
});

Outputs("should read the commands scp and sftp run here from their options, judge -S and -D as writing any file, and read what sftp fetches", async ({ box }) => {
  await reads(box, [
    ["scp -o ProxyCommand='touch u.ts' x:a /tmp/got", ["/tmp/got", "u.ts"]],
    ["scp -oProxyCommand=nc\\ %h\\ %p a.txt x:", []],
    ["scp -o ProxyCommand='ssh -W %h:%p bastion' a.txt x:", []], // a jump host: its command is read, and writes nothing here
    ["scp -o \"$opt\" a.txt x:", ["unknown:."]],
    ["scp -S ./fake-ssh a.txt x:", ["unknown:."]],
    ["scp -o Port=2222 x:a.txt got.txt", ["got.txt"]],
    ["scp a.txt x:", []],
    ["sftp -o ProxyCommand='touch u.ts' x:", ["u.ts"]],
    ["sftp -D /usr/lib/openssh/sftp-server", ["unknown:."]],
    ["sftp -b cmds.txt x", []],
    ["printf 'get u.ts\\n' > cmds.txt; sftp -b cmds.txt x", ["cmds.txt", "unknown:."]],
    ["sftp -b - x <<'EOF'\nls\nput a.txt\nEOF", []],
    ["sftp x <<'EOF'\nget u.ts\nEOF", ["unknown:."]],
    ["sftp -b \"$f\" x", ["unknown:."]],
    ["sftp x:/srv/app.log", ["app.log"]],
    ["sftp -P 2222 x", []],
    ["sftp x:/srv/", []],
  ]);
  denies(box, ["sftp -o ProxyCommand='touch u.ts' x:", "scp -o ProxyCommand='touch u.ts' x:a /tmp/got", "scp -o 'ProxyCommand touch u.ts' a.txt x:", "sftp x:/srv/u.ts"]);
  allows(box, ["scp a.txt x:", "scp -P 2222 x:a.txt /tmp/got", "sftp x:", "sftp -b cmds x"]);
  file(box, "cmds", "cd /srv\n-get u.ts\n");
  denies(box, ["sftp -b cmds x"]);
});

Outputs("should judge ninja's commands as writing any file, cargo's resolving commands as writing Cargo.lock, and npm's editor as writing any file", async ({ box }) => {
  file(box, "build.ninja", "rule w\n  command = echo ninja > u.ts\nbuild out: w\n");
  file(box, "Cargo.toml", '[package]\nname = "c"\nversion = "0.1.0"\n');
  await reads(box, [
    ["ninja", ["unknown:."]],
    ["ninja -C build -j 4 all", ["unknown:."]],
    ["samu", ["unknown:."]],
    ["ninja -t clean", ["unknown:."]],
    ["ninja -n", []],
    ["ninja -t targets all", []],
    ["ninja --version", []],
    ["cargo metadata --format-version 1 --offline", ["Cargo.lock"]],
    ["cargo metadata --no-deps --format-version 1", []],
    ["cargo tree --offline", ["Cargo.lock"]],
    ["cargo +nightly fetch", ["Cargo.lock"]],
    ["cargo tree --locked", []],
    ["cargo vendor", ["Cargo.lock", "glob:vendor/**"]],
    ["cargo vendor third_party", ["Cargo.lock", "glob:third_party/**"]],
    ["cargo build", ["Cargo.lock", "glob:target/**"]],
    ["npm config edit", ["unknown:."]],
    ["npm c edit --location=project", ["unknown:."]],
    ["npm edit lodash", ["unknown:."]],
    ["npm config get registry", []],
  ]);
  denies(box, ["ninja", "ninja -C . out", "EDITOR='touch u.ts #' npm config edit", "npm --editor='touch u.ts #' config edit", "npm edit lodash"]);
  allows(box, ["ninja -t targets", "ninja --version", "npm config list", "cargo tree --locked", "cargo metadata --no-deps --format-version 1"]);
  file(box, "Cargo.lock", "");
  claims(["take", join(box.project, "Cargo.lock"), "--dir", box.dir, "--holder", "other", "--purpose", "pinning"]);
  denies(box, ["cargo metadata --format-version 1 --offline", "cargo tree --offline", "cargo fetch --offline", "cargo vendor"]);
  allows(box, ["cargo tree --locked", "cargo metadata --no-deps --format-version 1", "cargo --version"]);
});

Outputs("should read what ar, ranlib, ptar, dpkg-deb, lzma, unlzma and gzexe write", async ({ box }) => {
  file(box, "pkg/DEBIAN/control", "Package: x\n");
  await reads(box, [
    ["ar x lib.a", ["glob:*"]],
    ["ar -x lib.a u.ts", ["u.ts"]],
    ["ar xP lib.a", ["glob:**"]],
    ["ar x --output=out lib.a", ["glob:out/*"]],
    ["ar rcs lib.a x.o y.o", ["lib.a"]],
    ["ar rb x.o lib.a y.o", ["lib.a"]],
    ["ar t lib.a", []],
    ["ar p lib.a x.o", []],
    ["ranlib lib.a", ["lib.a"]],
    ["ptar -x -f a.tar", ["glob:**"]],
    ["ptar -c -f out.tar a b", ["out.tar"]],
    ["ptar -t -f a.tar", []],
    ["dpkg-deb -x a.deb .", ["glob:**"]],
    ["dpkg-deb -R a.deb tree", ["glob:tree/**"]],
    ["dpkg-deb -e a.deb", ["glob:DEBIAN/**"]],
    ["dpkg-deb -b pkg u.ts", ["u.ts"]],
    ["dpkg-deb --build pkg/", ["pkg.deb"]],
    ["dpkg-deb -b pkg pkg", ["glob:pkg/*"]],
    ["dpkg-deb -c a.deb", []],
    ["lzma u.ts", ["u.ts", "u.ts.lzma"]],
    ["lzma -d u.ts.lzma", ["u.ts", "u.ts.lzma"]],
    ["unlzma -f -k u.ts.lzma", ["u.ts", "u.ts.lzma"]],
    ["lzma -c u.ts", []],
    ["gzexe u.ts", ["u.ts", "u.ts~"]],
  ]);
  denies(box, ["ar x lib.a", "ptar -x -f a.tar", "dpkg-deb -x a.deb .", "dpkg-deb -b deb u.ts", "lzma u.ts", "unlzma -f -k u.ts.lzma", "gzexe u.ts", "ar rc u.ts x.o"]);
  allows(box, ["ar t lib.a", "ar tv lib.a", "ptar -t -f a.tar", "dpkg-deb -c a.deb", "dpkg-deb -I a.deb", "lzma -c u.ts > /dev/null", "ar x lib.a x.o"]);
});

Outputs("should read what cpp, c99, c89, the pod converters, gettext's tools, ptx -G and cscope write", async ({ box }) => {
  await reads(box, [
    ["cpp x.c u.ts", ["u.ts"]],
    ["cpp x.c -o out.i", ["out.i"]],
    ["cpp -I inc x.c", []],
    ["cpp - out.i", ["out.i"]],
    ["c99 -o prog x.c", ["prog"]],
    ["c89 -E x.c -o out.i", ["out.i"]],
    ["c99 -c x.c", ["x.o"]],
    ["pod2text x.pod u.ts", ["u.ts"]],
    ["pod2text -w 60 x.pod", []],
    ["pod2man -c Center a.pod a.1 b.pod b.1", ["a.1", "b.1"]],
    ["pod2html --infile=x.pod --outfile=u.ts", ["glob:pod2htm*.tmp", "u.ts"]],
    ["pod2html --infile x.pod --cachedir /tmp/c", ["glob:/tmp/c/pod2htm*.tmp"]],
    ["msgfmt -o u.ts x.po", ["u.ts"]],
    ["msgfmt x.po", ["messages.mo"]],
    ["msgfmt -o - x.po", []],
    ["msgmerge -o out.po x.po x.pot", ["out.po"]],
    ["msgmerge -U x.po x.pot", ["x.po"]],
    ["msgmerge x.po x.pot", []],
    ["msgcat -o u.ts x.po", ["u.ts"]],
    ["msguniq --output-file=u.ts x.po", ["u.ts"]],
    ["msgattrib -o u.ts x.po", ["u.ts"]],
    ["msgconv -t UTF-8 -o u.ts x.po", ["u.ts"]],
    ["msgconv -t UTF-8 x.po", []],
    ["msginit -i x.pot -o u.ts --no-translator -l en", ["u.ts"]],
    ["msginit -i x.pot -l de", ["glob:*.po"]],
    ["xgettext -d app -p po x.c", ["po/app.po"]],
    ["xgettext -o u.ts x.c", ["u.ts"]],
    ["msgexec -i x.po cat", ["unknown:."]],
    ["ptx -G x.c u.ts", ["u.ts"]],
    ["ptx x.c u.ts", []],
    ["cscope -b -f u.ts x.c", ["u.ts"]],
    ["cscope -b -q x.c", ["cscope.out", "cscope.out.in", "cscope.out.po"]],
    ["cscope -d -L0 main", []],
  ]);
  denies(box, ["cpp x.c u.ts", "cpp x.c -o u.ts", "c99 -o u.ts x.c", "c89 -E x.c -o u.ts", "pod2text x.pod u.ts", "pod2man x.pod u.ts", "pod2html --infile=x.pod --outfile=u.ts"]);
  denies(box, ["msgfmt -o u.ts x.po", "msgmerge -o u.ts x.po x.pot", "msgcat -o u.ts x.po", "msguniq -o u.ts x.po", "msgattrib -o u.ts x.po", "msgconv -o u.ts x.po"]);
  denies(box, ["msginit -i x.pot -o u.ts --no-translator -l en", "ptx -G x.c u.ts", "cscope -b -f u.ts x.c", "/usr/bin/cpp x.c u.ts"]);
  allows(box, ["cpp x.c", "cpp -dM x.c | head", "g++ -o app main.cpp", "cat main.cpp", "pod2text x.pod", "msgfmt --statistics -o /dev/null x.po", "msgmerge x.po x.pot", "ptx x.c u.ts", "cscope -d -L0 main"]);
});

Outputs("should read openssl's -writerand, gpg's outputs without -o, yq --in-place, blkid's cache and the device mkswap and mkfs format", async ({ box }) => {
  await reads(box, [
    ["openssl rand -writerand u.ts 1", ["u.ts"]],
    ["openssl rand -hex 16", []],
    ["gpg --batch --yes --passphrase p --pinentry-mode loopback --decrypt-files u.ts.gpg b.txt.asc", ["b.txt", "u.ts"]],
    ["gpg --encrypt-files -r bob a.txt", ["a.txt.gpg"]],
    ["gpg -e -r bob a.txt", ["a.txt.gpg"]],
    ["gpg -c --armor a.txt", ["a.txt.asc"]],
    ["gpg --clearsign a.txt", ["a.txt.asc"]],
    ["gpg --detach-sign a.txt", ["a.txt.sig"]],
    ["gpg -o out.txt -d a.gpg", ["out.txt"]],
    ["gpg -d a.gpg", []],
    ["gpg --verify a.txt.sig a.txt", []],
    ["yq --in-place -y . u.ts", ["u.ts"]],
    ["yq -y . u.ts", []],
    ["blkid -c u.ts", ["u.ts"]],
    ["blkid -c /dev/null", []],
    ["blkid", []],
    ["mkswap disk.img", ["disk.img"]],
    ["mkswap -L swap disk.img 1024", ["disk.img"]],
    ["mkfs.ext4 -F disk.img", ["disk.img"]],
  ]);
  denies(box, ["openssl rand -writerand u.ts 1", "gpg --batch --yes --passphrase p --pinentry-mode loopback --decrypt-files u.ts.gpg", "yq --in-place -y . u.ts", "blkid -c u.ts", "mkswap u.ts", "mkfs.ext4 -F u.ts", "gpg --decrypt-files u.ts.asc"]);
  allows(box, ["openssl rand -hex 16", "gpg --verify a.sig a.txt", "gpg -d a.gpg", "yq -y . u.ts", "blkid", "blkid -c /dev/null /dev/sda1", "mkswap disk.img"]);
});

Outputs("should read sftp's commands on a pipe and gpg's files the text does not fix as any file, and pass a word ar that is no command", async ({ box }) => {
  // Each passed as writing nothing: sftp's input read only when the text gives it, gpg's operand dropped when not fixed.
  assert.equal(await writes(box, "echo 'get u.ts' | sftp host"), ["unknown:."]);
  assert.equal(await writes(box, "cat cmds | sftp host"), ["unknown:."]);
  assert.equal(await writes(box, "sftp host <<'EOF'\nls\nEOF"), [], "commands it is given that write nothing here");
  assert.equal(await writes(box, 'gpg --decrypt-files "$(cat list)"'), ["unknown:."]);
  assert.equal(await writes(box, 'gpg -e -r a "$(cat list)"'), ["unknown:."]);
  const { mayWrite } = await import("../src/hooks/shell-gate.js");
  assert.is(mayWrite("ar x lib.a"), true);
  assert.is(mayWrite("grep -rn ar src"), false, "a word ar, not the command, needs no parse");
});

Outputs("should read m4's debug and frozen-state files, and judge an input whose macros run shell commands as any file", async ({ box }) => {
  file(box, "in.m4", "define(`X', `1')dnl\nX\n");
  file(box, "run.m4", "syscmd(`rm -f u.ts')dnl\n");
  file(box, "prefixed.m4", "m4_syscmd(`rm -f u.ts')m4_dnl\n");
  file(box, "whole.m4", "include(`in.m4')dnl\n");
  await reads(box, [
    ["m4 -o debug.txt in.m4", ["debug.txt"]],
    ["m4 --debugfile=debug.txt in.m4 > out.txt", ["debug.txt", "out.txt"]],
    ["m4 -F state.m4f in.m4", ["state.m4f"]],
    ["m4 in.m4 > out.txt", ["out.txt"]],
    ["m4 run.m4", ["unknown:."]],
    ["m4 <<< 'esyscmd(`date')'", ["unknown:."]],
    ["cat run.m4 | m4", ["unknown:."]],
    ["m4 -P prefixed.m4", ["unknown:."]], // -P's m4_syscmd
    ["m4 whole.m4", ["unknown:."]], // a file it includes, not read here
    ["m4 -D 'X=syscmd(rm u.ts)' in.m4", ["unknown:."]],
    ["m4 -d in.m4 > out.txt", ["out.txt"]], // -d's flags only attached: in.m4 is its input
    ["m4 --debugfile in.m4 > out.txt", ["out.txt"]],
  ]);
  denies(box, ["m4 -o u.ts in.m4", "m4 --error-output u.ts in.m4", "m4 run.m4"]);
  allows(box, ["m4 -DX=2 in.m4 > out.txt"]);
});

Outputs.run();
