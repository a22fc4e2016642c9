// Commands that run a program or write a file through an option or a default the hook once passed
// by: tar's remote shell (`--rsh-command`, `--rmt-command`), the hooks and config of git's
// templates (`--template`, `init.templateDir`, GIT_TEMPLATE_DIR) and a clone's hooks path, gpg
// decrypting beside its input with no command given, gpg's options file (`--options`, a home's
// gpg.conf), the commands an ssh config given by `-F` runs here, and the libraries ssh loads
// (`-I`, `-o PKCS11Provider=`). Another session holds u.ts; session s2 runs each command through
// the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, bash, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Leftovers = suite<Context>("claims hook: programs run and files written through options once passed by");
Leftovers.before.each((context) => {
  context.box = heldBox();
  spawnSync("git", ["init", "-q", context.box.project]);
});
Leftovers.after.each((context) => context.box.cleanup());

Leftovers("should read the remote shell tar runs for an archive on another host", async ({ box }) => {
  file(box, "tools/rsh.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "t/a.ts", "export const a = 1;\n");
  denies(box, [
    // tar runs the program (no shell between) with the host and rmt's command line: `tools/rsh.sh host /usr/sbin/rmt`.
    "tar --rsh-command=tools/rsh.sh -cf localhost:out.tar t",
    "tar --rsh-command tools/rsh.sh -tvf bob@localhost:a.tar", // `tools/rsh.sh localhost -l bob /usr/sbin/rmt`
    "tar --rsh=tools/rsh.sh -tf localhost:a.tar", // an abbreviation tar takes
    "tar -c --rsh-command=tools/rsh.sh t", // no -f: $TAPE's archive, which may be on a host
    'tar --rsh-command=tools/rsh.sh -tf "$archive"', // an archive the text does not fix, which may be on a host
    "TAR_OPTIONS=--rsh-command=tools/rsh.sh tar -cf localhost:out.tar t", // tar reads its words first
    "TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=tools/rsh.sh' tar -cf out.tar t",
    'export TAR_OPTIONS="-I tools/rsh.sh"; tar -cf out.tar t',
    "TAR_OPTIONS=-fu.ts tar -c t", // its files too: TAR_OPTIONS set by the command is any file
    "TAR_OPTIONS=--remove-files tar -cf out.tar u.ts",
    // The command the remote shell is given to run there, which may be here: an absolute path of this machine.
    `tar --rsh-command=/usr/bin/ssh --rmt-command='rm -f ${box.project}/u.ts' -cf localhost:out.tar t`,
    // A program the text does not fix: any file.
    'tar --rsh-command="$rsh" -cf localhost:out.tar t',
    'tar --rmt-command="$rmt" -cf localhost:out.tar t',
  ]);
  assert.ok((await writes(box, "tar --rsh-command=tools/rsh.sh -cf localhost:out.tar t")).includes("u.ts"), "read as the program it runs, not as any file");
  // The user's own TAR_OPTIONS, in the environment the hook runs in, is theirs: not judged.
  assert.is(bash(box, "tar -cf out.tar t", {}, { TAR_OPTIONS: "--owner=0 '--group=0'" }), undefined);
  allows(box, [
    "tar -cf localhost:out.tar t", // the system's rsh and rmt, as before
    "TAR_OPTIONS= tar -cf out.tar t",
    "tar --rsh-command=/usr/bin/ssh -cf localhost:out.tar t",
    "tar --rsh-command=tools/rsh.sh -cf out.tar t", // an archive here: no remote shell runs
    "tar --force-local --rsh-command=tools/rsh.sh -cf localhost:out.tar t",
    "tar --rsh-command='rm u.ts' -cf localhost:out.tar t", // run as a program's path, which has no such name
    'tar --rsh-command=/usr/bin/ssh -tf "$archive"',
    `tar --rmt-command='rm -f u.ts' -cf localhost:out.tar t`, // run there, from its home
  ]);
});

Leftovers("should read gpg given no command as decrypting beside its file, and its embedded name as any file", async ({ box }) => {
  // gpg guesses: it decrypts (or takes the signed text out of) u.ts.gpg into u.ts, as --decrypt-files does.
  denies(box, [
    "gpg u.ts.gpg",
    "gpg --batch --yes --passphrase p --pinentry-mode loopback u.ts.asc",
    "gpg2 -q u.ts.pgp",
    "gpg --decrypt-f u.ts.gpg", // an abbreviation gpg takes
    "gpg --multifile --decrypt u.ts.gpg", // --multifile makes --decrypt --decrypt-files
    "gpg --multifile -d a.gpg u.ts.pgp",
    "gpg --multifile u.ts.gpg", // a modifier, no command: gpg still guesses
    // The name the message holds: any file.
    "gpg -d --use-embedded-filename a.gpg",
    "gpg --use-embedded-filename < a.gpg",
  ]);
  assert.equal(await writes(box, "gpg --batch u.ts.gpg"), ["u.ts"]);
  // Its other commands that write beside what they are given.
  assert.equal(await writes(box, "gpg --store a.txt"), ["a.txt.gpg"]);
  assert.equal(await writes(box, "gpg -a --store a.txt"), ["a.txt.asc"]);
  assert.equal(await writes(box, "gpg --enarmor key.gpg"), ["key.gpg.asc"]);
  assert.equal(await writes(box, "gpg --dearmor key.asc"), ["key.asc.gpg"]);
  assert.equal(await writes(box, "gpg --multifile -e -r bob a.txt b.txt"), ["a.txt.gpg", "b.txt.gpg"]);
  allows(box, ["gpg -d u.ts.gpg", "gpg --decrypt u.ts.gpg", "gpg --verify u.ts.sig u.ts", "gpg --import key.asc", "gpg -k bob", "gpg --list-keys", "gpg a.txt.gpg", "gpg -z 0 -c a.txt"]);
});

Leftovers("should read gpg given an options file, or a home directory holding one, as any file", async ({ box }) => {
  // The file may say `output u.ts` or `use-embedded-filename`: gpg then writes a file the text does not name.
  file(box, "o.conf", "use-embedded-filename\n");
  file(box, "g/gpg.conf", "output u.ts\n");
  file(box, "g2/gpg.conf-2", "use-embedded-filename\n");
  file(box, "plain/pubring.kbx", "");
  denies(box, [
    "gpg --options o.conf -d a.gpg",
    "gpg --options=o.conf -d a.gpg",
    "gpg2 --options o.conf --decrypt < a.gpg",
    "gpg --opt o.conf -k", // an abbreviation gpg takes; a listing reads it too
    'gpg --options "$f" -d a.gpg',
    'gpg --options="$f" -d a.gpg',
    "gpg --homedir g -d a.gpg",
    "gpg --options=o.conf --list-keys",
    "gpg --homedir=g -k",
    "gpg --homedir g2 -d a.gpg",
    'gpg --homedir "$d" -d a.gpg',
    'gpg --homedir="$d" -d a.gpg',
    "GNUPGHOME=g gpg -d a.gpg",
    'GNUPGHOME="$d" gpg -k',
    "export GNUPGHOME=g; gpg -k",
    "mkdir -p h && echo use-embedded-filename > h/gpg.conf && gpg --homedir h -d a.gpg", // written first
  ]);
  assert.equal(await writes(box, "gpg --options o.conf -d a.gpg"), ["unknown:."]);
  assert.equal(await writes(box, "gpg --homedir g -k"), ["unknown:."]);
  // No options file read, or a home with none in it: as before.
  allows(box, ["gpg --options /dev/null -d a.gpg", "gpg --no-options -d a.gpg", "gpg --homedir plain -d a.gpg", "gpg --homedir fresh --import key.asc", "GNUPGHOME=plain gpg -k"]);
});

Leftovers("should read the commands an ssh config given by -F runs here, and one the hook cannot read as any file", async ({ box }) => {
  file(box, "tools/px.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "proxy.conf", "Host *\n  ProxyCommand tools/px.sh %h %p\n");
  file(box, "local.conf", "Host build\n  PermitLocalCommand yes\n  LocalCommand=touch u.ts\n");
  file(box, "known.conf", "Host *\n  KnownHostsCommand /bin/rm -f u.ts\n");
  file(box, "match.conf", 'Match host x exec "touch u.ts"\n  User bob\n');
  file(box, "include.conf", "Include ~/.ssh/conf.d/*\n");
  file(box, "pkcs.conf", "Host *\n  PKCS11Provider ./lib.so\n");
  file(box, "plain.conf", "Host *\n  User bob\n  Port 2222\n  ProxyJump bastion\n");
  file(box, "jump.conf", "Host *\n  ProxyCommand ssh -W %h:%p bastion\n");
  denies(box, [
    "ssh -F proxy.conf host ls",
    "ssh -F local.conf build",
    "ssh -qF known.conf x",
    "ssh -F match.conf x true",
    "ssh x -F proxy.conf", // options after the host too
    "scp -F proxy.conf x:a.txt b.txt",
    "sftp -F local.conf -b /dev/null build",
    // A config that loads others or a library, one not there, one the text does not fix, one written first: any file.
    "ssh -F include.conf x",
    "ssh -F pkcs.conf x",
    "ssh -F missing.conf x",
    'ssh -F "$config" x',
    "printf 'ProxyCommand rm u.ts' > c.conf; ssh -F c.conf x",
  ]);
  assert.ok((await writes(box, "ssh -F match.conf x true")).includes("u.ts"), "read as its command, not as any file");
  allows(box, ["ssh -F plain.conf x ls", "ssh -F jump.conf x ls", "ssh -F none x", "scp -F plain.conf x:a.txt b.txt", "sftp -F plain.conf -b /dev/null x", "ssh x ls -F"]);
});

Leftovers("should judge a library ssh, scp and sftp are given to load, by -I or -o, as any file", async ({ box }) => {
  // A PKCS#11 or security key provider's code runs as this user: it may write any file.
  denies(box, [
    "ssh -I ./lib.so host",
    "ssh -I./lib.so host true",
    "ssh -vI ./lib.so host",
    "ssh host -I ./lib.so", // options after the host too
    "ssh -o PKCS11Provider=./lib.so host",
    "ssh -oPKCS11Provider=./lib.so host",
    'ssh -o "SecurityKeyProvider ./lib.so" host',
    "ssh -o pkcs11provider=/usr/lib/x.so host", // keywords in any case
    "scp -o PKCS11Provider=./lib.so a.txt host:b",
    "sftp -o SecurityKeyProvider=./lib.so host",
  ]);
  assert.ok((await writes(box, "ssh -I ./lib.so host")).includes("unknown:."));
  allows(box, ["ssh -I none host", "ssh -o PKCS11Provider=none host", "ssh -o SecurityKeyProvider=internal host", "ssh -i ./key host", "scp -i ./key a.txt host:b"]);
});

Leftovers("should judge a template or hooks path given to git clone and git init as any file when it holds hooks", async ({ box }) => {
  spawnSync("git", ["init", "-q", "src"], { cwd: box.project });
  spawnSync("git", ["-C", "src", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "i"], { cwd: box.project });
  // The clone copies the template's hooks in and runs post-checkout from its work tree; init's run with later commands.
  file(box, "tpl/hooks/post-checkout", "#!/bin/sh\nrm -f ../u.ts\n", 0o755);
  file(box, "hooks/post-checkout", "#!/bin/sh\nrm -f ../u.ts\n", 0o755);
  file(box, "cfg-tpl/config", "[core]\n\thooksPath = /tmp/hooks\n");
  // git's own template's kind: sample hooks, which never run, a description, an exclude file.
  file(box, "plain-tpl/hooks/pre-commit.sample", "#!/bin/sh\nexit 0\n", 0o755);
  file(box, "plain-tpl/description", "Unnamed repository\n");
  file(box, "plain-tpl/info/exclude", "*.o\n");
  denies(box, [
    "git clone --template=tpl src d",
    "git clone --template tpl src d",
    "git init --template=tpl d",
    "git -c init.templateDir=tpl clone src d",
    "GIT_TEMPLATE_DIR=tpl git clone src d",
    "git clone --template=cfg-tpl src d", // a config, which may name hooks or commands of its own
    `git -c core.hooksPath=${box.project}/hooks clone src d`,
    `git clone -c core.hooksPath=${box.project}/hooks src d`,
    "git clone -c core.hooksPath=hooks src d", // the clone's own hooks directory, which it fills
    "mkdir -p t2/hooks && cp hooks/post-checkout t2/hooks/ && git clone --template=t2 src d",
    // A clone's settings are read as git's own -c: a smudge filter runs as it checks the files out.
    "git clone -c filter.x.smudge='rm -f u.ts; cat' src d",
    "git clone --config filter.x.smudge='rm -f u.ts; cat' src d",
    // One the text does not fix: any file.
    'git clone --template="$t" src d',
    'git init --template="$t"',
    'git clone -c "$setting" src d',
    // Config files the command chooses, which may name a template or hooks path: unread, any file.
    "HOME=/tmp/elsewhere git clone src d",
    "GIT_CONFIG_GLOBAL=g.cfg git clone src d",
    "XDG_CONFIG_HOME=cfg git init d",
  ]);
  allows(box, [
    "git clone src d",
    "git clone -q src",
    "git init d",
    "git clone --template=plain-tpl src d",
    "git init --template=plain-tpl d",
    "git clone --template= src d",
    "git clone --template=missing src d", // git copies nothing, and says so
    "git clone -c user.name=bob src d",
    `git clone -c core.hooksPath=${box.project}/plain-tpl/hooks src d`,
  ]);
  // The user's own template, in the environment the hook runs in, is theirs: not judged.
  assert.is(bash(box, "git clone src d", {}, { GIT_TEMPLATE_DIR: `${box.project}/tpl` }), undefined);
});

Leftovers("should judge the files ssh's options write here: known hosts, a master's control socket, a forward's socket", async ({ box }) => {
  file(box, "kh.conf", `Host *\n  UserKnownHostsFile ${box.project}/u.ts\n`);
  file(box, "qkh.conf", `Host *\n  UserKnownHostsFile "${box.project}/u.ts"\n`);
  file(box, "cm.conf", "Host *\n  ControlPath u.ts\n  ControlMaster auto\n");
  file(box, "cp.conf", "Host *\n  ControlPath u.ts\n");
  denies(box, [
    "ssh -F kh.conf x true", // in -F's config as on the command line
    "ssh -F qkh.conf x true", // a quoted value, as ssh splits one
    "ssh -o userknownhostsfile=u.ts x true", // ssh's keywords ignore case
    "ssh -vo UserKnownHostsFile=u.ts x true", // -o among other flags
    `ssh -o 'UserKnownHostsFile "u.ts"' x true`,
    "ssh -o StreamLocalBindUnlink=yes -L '[./u.ts]:localhost:80' x", // a bracketed field, taken whole
    'rsync -e "ssh -F kh.conf" a.txt x:b.txt', // rsync's remote shell, run here
    "rsync -e 'ssh -o UserKnownHostsFile=u.ts' a.txt x:b.txt",
    "RSYNC_RSH='ssh -F kh.conf' rsync a.txt x:b.txt",
    "scp -F kh.conf a.txt x:b.txt",
    "ssh -F cm.conf x true",
    "ssh -M -F cp.conf x",
    "ssh -o UserKnownHostsFile=u.ts -o StrictHostKeyChecking=accept-new x true", // a new host's key added there
    `ssh -o 'UserKnownHostsFile ${box.project}/u.ts' x true`,
    "scp -o UserKnownHostsFile=u.ts a.txt x:b.txt",
    "ssh -M -S u.ts x", // a master makes its socket there
    "ssh -o ControlMaster=auto -o ControlPath=u.ts x true",
    "ssh -M -o ControlPath=u.%n x", // a name ssh fills in: any there
    "ssh -o StreamLocalBindUnlink=yes -L $PWD/u.ts:localhost:80 x", // the socket replaces the file
    'ssh -o "$option" x true', // an option the text does not fix: any file
  ]);
  assert.ok((await writes(box, "ssh -o UserKnownHostsFile=~/kh x true")).some((path) => path.endsWith("/kh")), "~ is ssh's home");
  allows(box, [
    "ssh -S u.ts -O check x", // a client of a master: it makes nothing
    "ssh -o ControlMaster=no -S u.ts x true",
    "ssh -L 8080:localhost:80 x",
    "ssh -L '[::1]:8080:localhost:80' x",
    "ssh -o StrictHostKeyChecking=no x true",
    "ssh -o UserKnownHostsFile=/dev/null x true",
    "ssh -M -o ControlPath=other-%h.sock x",
    "ssh -o ControlPath=u.ts x true",
    "ssh -F cp.conf x true", // a client of a master, if any
    'rsync -e "ssh -p 2222" a.txt x:b.txt',
    "rsync -av a.txt x:b.txt",
  ]);
});

Leftovers.run();
