// Writes through the shell that hide from a plain reading of the text: a command name quoted or
// escaped, Codex's second spelling of apply_patch, a diff on a pipe, wrappers, the scripts of sed,
// awk and the editors, and tools whose output file is an operand or an option. Another session
// holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { chmodSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { allows, bash, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Tools = suite<Context>("claims hook: writes hidden in a command's words");
Tools.before.each((context) => {
  context.box = heldBox();
  file(context.box, "src/b.ts", "export const b = 1;\n");
});
Tools.after.each((context) => context.box.cleanup());

/** A file of the project that another session ("other") holds too, beside u.ts. */
function held(box: Sandbox, path: string): void {
  file(box, path, "");
  claims(["take", join(box.project, path), "--dir", box.dir, "--holder", "other", "--purpose", "formatting"]);
}

Tools("should read a command whose name is quoted, escaped or split by a line continuation", async ({ box }) => {
  denies(box, ['"r"m u.ts', "r\\m u.ts", "c\\p src/b.ts u.ts", "c''p src/b.ts u.ts", "t\\ee u.ts < /dev/null", "c=rm; $c u.ts", 'c=rm; "$c" u.ts', "c=rm; ${c} u.ts"]);
  allows(box, ['"r"m src/b.ts', "c\\p u.ts src/c.ts", "echo 'it''s' done", 'grep -r "u.ts" src']);
  // What the gate passes to the walk: a name the text does not fix, braces, arrays, traps, aliases.
  const { mayWrite } = await import("../src/hooks/shell-gate.js");
  for (const command of [
    "$'rm' u.ts",
    "r\\\nm u.ts",
    "{rm,u.ts}",
    "r{m,} u.ts",
    'c=(rm u.ts); "${c[@]}"',
    "sudo $c u.ts",
    "trap 'x' EXIT",
    "coproc NAME { true; }",
    "hash -p /bin/rm ls",
    "alias ls=true",
    "PS4='$(x)' bash -x y",
  ]) {
    assert.ok(mayWrite(command), command);
  }
  for (const command of ["ls -la", "git status", "echo 'a b' | grep a", "cat src/b.ts", 'echo "${HOME}"', "grep -c x {a,b}.txt", "sort < src/b.ts", "wc -l<src/b.ts", "cat <<EOF\nx\nEOF"]) assert.not.ok(mayWrite(command), command);
  // GNU's tools as Homebrew installs them, `g` before the name.
  denies(box, ["grm u.ts", "gcp src/b.ts u.ts", "gtruncate -s0 u.ts", "gtimeout 60 sed -i s/1/2/ u.ts", "gfind . -name u.ts -delete", "echo u.ts | gxargs rm", "gln -sf src/b.ts u.ts", "gsort -o u.ts src/b.ts"]);
  allows(box, ["gsort u.ts", "gls -la", "grm src/b.ts"]);
  // An input redirection glued to the name, or between it and its words, hides neither from bash.
  denies(box, ["rm<<<x u.ts", "cp<<<x src/b.ts u.ts", "sed<<<x -i s/1/2/ u.ts", "git<<<x checkout u.ts", "truncate<<<x -s0 u.ts", "rm</dev/null u.ts", "git <src/b.ts checkout u.ts", "rm 0<>x u.ts"]);
});

Tools("should read Codex's applypatch as apply_patch", ({ box }) => {
  const patch = (path: string) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-export const u = 1;\n+export const u = 2;\n*** End Patch`;
  denies(box, [`applypatch <<'PATCH'\n${patch("u.ts")}\nPATCH`, `applypatch '${patch("u.ts")}'`]);
  allows(box, [`applypatch <<'PATCH'\n${patch("src/b.ts")}\nPATCH`]);
});

Tools("should judge a diff on a pipe into patch or git apply as any file, and read one from a file", async ({ box }) => {
  const diff = "--- a/u.ts\n+++ b/u.ts\n@@ -1 +1 @@\n-export const u = 1;\n+export const u = 2;\n";
  file(box, "u.diff", diff);
  file(box, "b.diff", diff.replaceAll("u.ts", "src/b.ts"));
  denies(box, ["cat u.diff | patch -p1", "cat b.diff | patch -p1", "cat u.diff | git apply", "git apply - < u.diff", "curl -s https://example.com/g.diff | git apply", 'patch -p1 -i "$f"', "patch -p1 < u.diff", "git apply u.diff"]);
  allows(box, ["patch -p1 < b.diff", "git apply b.diff", "git apply - < b.diff", "patch --version", "git apply --stat < u.diff"]);
  assert.equal(await writes(box, "cat x.diff | patch -d src -p1"), ["glob:src/**"], "under where patch works: it refuses absolute names and ..");
});

Tools("should read the command a wrapper runs: setsid, flock, fakeroot, su, chrt, taskset, unshare, busybox, strace, script", async ({ box }) => {
  denies(box, [
    "setsid rm u.ts",
    "setsid -f rm u.ts",
    "flock /tmp/x.lock rm u.ts",
    "flock -n -w 5 /tmp/x.lock -c 'rm u.ts'",
    "fakeroot rm u.ts",
    "fakeroot -s u.ts true",
    "su -c 'rm u.ts'",
    "su - root -c 'rm u.ts'",
    "chrt -b 0 rm u.ts",
    "taskset -c 0 rm u.ts",
    "unshare -r rm u.ts",
    "busybox sh -c 'rm u.ts'",
    "busybox rm u.ts",
    "strace -o u.ts ls",
    "strace -f -o /tmp/t.log rm u.ts",
    "ltrace -o u.ts ls",
    "script -q -c ls u.ts",
    "script -q u.ts -c ls",
    "script -q -c 'rm u.ts' /dev/null",
    "script -q",
  ]);
  allows(box, ["setsid ls", "flock /tmp/x.lock -c 'rm src/c.ts'", "chrt -b 0 ls", "taskset -c 0 true", "busybox ls", "strace -o /tmp/t.log ls", "script -q -c ls /dev/null", "unshare -r -w src rm u.ts"]);
  assert.equal(await writes(box, "script -q -c ls"), ["typescript"], "the typescript where it runs when no file is named");
});

Tools("should judge flock's lock file as written only where it is not there yet (it opens it with O_CREAT), and still read the command it runs", async ({ box }) => {
  file(box, "locks/held.lock", "");
  claims(["take", join(box.project, "locks/build.lock"), "--dir", box.dir, "--holder", "other", "--purpose", "serializing builds"]);
  claims(["take", join(box.project, "9"), "--dir", box.dir, "--holder", "other", "--purpose", "a file named 9"]);
  const cases: Array<[string, string[]]> = [
    ["flock locks/build.lock true", ["locks/build.lock"]], // not there: flock makes it
    ["flock -n -w 5 locks/build.lock -c 'echo hi'", ["locks/build.lock"]],
    ["flock -c 'echo hi' locks/build.lock", ["locks/build.lock"]],
    ["flock --exclusive --timeout 5 locks/build.lock -- true", ["locks/build.lock"]],
    ["cd locks && flock build.lock true", ["locks/build.lock"]],
    ["flock locks/held.lock true", []], // there: opened, never written
    ["flock locks true", []], // a directory: opened read-only
    ["flock -n 9", []], // alone: a descriptor's number
    ["exec 9>>/tmp/x.lock; flock -n 9 || exit 1", ["/tmp/x.lock"]], // the redirection, not flock
    ["flock locks/held.lock rm src/b.ts", ["src/b.ts"]], // the command it runs, as before
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["flock locks/held.lock rm u.ts", "flock -n locks/held.lock -c 'rm u.ts'"]);
  for (const command of ["flock locks/build.lock true", "flock -n -w 5 locks/build.lock -c 'echo hi'", "flock -c true locks/build.lock", "cd locks && flock -s build.lock true"]) assert.is(bash(box, command), "deny", command);
  allows(box, ["flock u.ts true", "flock -n u.ts -c 'ls'", "flock -n 9", "flock locks/held.lock true", "flock /tmp/x.lock -c 'cat u.ts'"]);
});

Tools("should judge a command line su, runuser, flock, parallel and other runners are given that the text does not fix as any file", async ({ box }) => {
  denies(box, [
    'su -c "$CMD"',
    'su builder -c "$CMD"',
    'su -lc "$CMD"',
    'su --session-command="$CMD"', // an option the text does not fix
    'su -c "$(cat job.sh)"',
    'echo "$CMD" | su builder', // a shell reading its input
    "su builder <<< 'rm u.ts'",
    "su builder -- -c 'rm u.ts'", // what follows the user is its shell's
    'flock /tmp/x.lock -c "$CMD"',
    'flock -n /tmp/x.lock --command "$CMD"',
    'runuser -u builder -c "$CMD"',
    'runuser -l builder -c "$CMD"',
    "runuser -l builder -c 'rm u.ts'", // without -u, su's form: a user, then its shell's arguments
    "runuser builder -c 'rm u.ts'",
    'runuser -u builder -- "$CMD" u.ts',
    'nix-shell -p jq --run "$CMD"',
    'npx -c "$CMD"',
    'mise x node@20 -c "$CMD"',
    'nodemon -x "$CMD"',
    'watchexec "$CMD"',
    'hyperfine "$CMD"',
    'parallel "$CMD" ::: a.log', // its words joined, run by a shell
    'parallel gzip "$opts" ::: a.log',
    'sudo -u builder "$CMD"', // after an option's value
    'sudo -u builder -s -- "$CMD"',
    'doas -u builder "$CMD" u.ts',
  ]);
  allows(box, ["su builder -c 'rm src/c.ts'", "runuser -l builder -c ls", "runuser -u builder -- cat u.ts", "su --help", 'ssh build-host "$CMD"' /* the remote's */]);
  assert.equal(await writes(box, "su - builder -c 'rm u.ts'"), ["unknown:u.ts"], "a login shell starts in the user's home");
  assert.equal(await writes(box, "runuser -u builder -- rm u.ts"), ["u.ts"], "with -u, the command itself, from here");
});

Tools("should read the command run through numactl, cgexec, systemd-inhibit, caffeinate, flatpak-spawn and chpst, after their own options", async ({ box }) => {
  denies(box, [
    "numactl --cpunodebind=0 --membind 0 rm u.ts",
    "numactl -N 0 -m 0 -- rm u.ts",
    "numactl -C 0-3 rm u.ts",
    "numactl --length 1m --file u.ts --interleave all", // the tmpfs file it creates and sizes
    "cgexec -g cpu,memory:build rm u.ts",
    "cgexec -g cpu:build --sticky rm u.ts",
    "systemd-inhibit --what idle --why 'a long build' rm u.ts",
    "systemd-inhibit --who=me --mode=block rm u.ts",
    "caffeinate -i -t 600 rm u.ts",
    "caffeinate -dims rm u.ts",
    "flatpak-spawn --host rm u.ts",
    "flatpak-spawn --host --env=A=1 --directory=src rm ../u.ts",
    "chpst -u nobody -n 5 rm u.ts",
    "chpst -l u.ts true", // the lock file it opens, created if missing
    'chpst -u nobody "$cmd" u.ts', // a command the text does not fix
  ]);
  allows(box, [
    "numactl -N 0 rm src/c.ts",
    "numactl --hardware",
    "cgexec -g cpu:build ls",
    "systemd-inhibit --list",
    "caffeinate -t 600",
    "flatpak-spawn --host --directory=src rm u.ts",
    "chpst -L /tmp/x.lock rm src/c.ts",
  ]);
  assert.equal(await writes(box, "chpst -/ /srv/jail rm u.ts"), ["unknown:u.ts"], "under another root: a place unknown");
  assert.equal(await writes(box, "chpst -C src rm u.ts"), ["src/u.ts"], "-C: from that directory");
});

Tools("should read the command runit's and daemontools' setlock, softlimit, envdir, envuidgid, setuidgid, pgrphack and fghack run, and setlock's lock file", ({ box }) => {
  denies(box, [
    "setlock /tmp/x.lock rm u.ts",
    "setlock -n -x /tmp/x.lock rm u.ts",
    "setlock -nX u.ts true", // the lock file it opens for writing, created if missing
    "softlimit -m 100000000 -o 64 rm u.ts",
    "softlimit -t = rm u.ts",
    "envdir ./env rm u.ts",
    "envuidgid builder rm u.ts",
    "setuidgid builder rm u.ts",
    "pgrphack rm u.ts",
    "fghack rm u.ts",
    "setuidgid builder softlimit -d 300000 envdir env rm u.ts", // stacked, as a service's run script stacks them
    'setuidgid builder "$cmd" u.ts', // a command the text does not fix
    'envdir ./env "$cmd"',
    'softlimit -m 1000 "$cmd"',
  ]);
  allows(box, ["setlock /tmp/x.lock rm src/c.ts", "softlimit -m 1000 ls", "envdir ./env ls", "setuidgid builder cat u.ts", "pgrphack ls", "fghack true"]);
});

Tools("should read the command firejail runs, the files it copies out of a sandbox or logs to, and any file for options the text does not fix", async ({ box }) => {
  denies(box, [
    "firejail rm u.ts",
    "firejail --noprofile --private-tmp --net=none rm u.ts",
    "firejail --quiet -- rm u.ts",
    "firejail --join=build rm u.ts",
    "firejail -c 'rm u.ts'", // a command line, as a login shell is given one
    "firejail --output=u.ts ls", // its log
    "firejail --get=web /srv/app/u.ts", // copied out of the sandbox, to where it runs
    "firejail --put=web src/b.ts u.ts", // copied into the sandbox: a place unknown
    'firejail "$opts" ls',
    'firejail --noprofile "$cmd" u.ts',
  ]);
  allows(box, ["firejail --noprofile ls", "firejail --list", "firejail --ls=web /srv", "firejail --get=web /srv/notes.txt", "firejail --private-cwd=src rm u.ts", "firejail --output=/tmp/fj.log ls"]);
  assert.equal(await writes(box, "firejail --chroot=/srv/root rm u.ts"), ["unknown:u.ts"], "under another root: a place unknown");
  assert.equal(await writes(box, "firejail --output=run.log ls"), ["run.log", "run.log.1", "run.log.2", "run.log.3", "run.log.4", "run.log.5"], "the log and its rotations");
});

Tools("should read the command line sg runs as another group, and leave ast-grep's sg alone", ({ box }) => {
  denies(box, ["sg wheel -c 'rm u.ts'", "sg wheel 'rm u.ts'", "sg - wheel -c 'echo x > u.ts'", 'sg wheel -c "$cmd"', "sudo sg docker -c 'rm u.ts'"]);
  allows(box, ["sg wheel -c 'rm src/c.ts'", "sg wheel -c ls", "sg run -p 'foo($A)' src", "sg scan", "sg --version"]);
});

Tools("should read the command retry repeats, with or without --, as run and as a command line", ({ box }) => {
  denies(box, [
    "retry -- rm u.ts",
    "retry rm u.ts",
    "retry -t 3 -d 1,2,4 -- rm u.ts",
    "retry --until=success --times 3 -- rm u.ts",
    "retry --delay 5 rm u.ts",
    "retry 'rm u.ts'", // a retry that evals its words
    "retry -t 3 -f 'rm u.ts' -- false", // the command line run when it gives up
    'retry -- "$cmd" u.ts',
    "retry -v -- rm u.ts", // -v: one's --version, the other's --verbose
  ]);
  allows(box, ["retry -t 3 -- curl -fsS https://example.com", "retry -- rm src/c.ts", "retry -m 'rm u.ts' -- true", "retry --version"]);
});

Tools("should judge the output file a tool takes as an operand or an option: uniq, history, git diff --output, openssl -out", async ({ box }) => {
  denies(box, [
    "uniq src/b.ts u.ts",
    "uniq -f 1 src/b.ts u.ts",
    "history -w u.ts",
    "history -a u.ts",
    "git diff --output=u.ts",
    "git log -p --output u.ts",
    "git show HEAD --output=u.ts",
    'git show HEAD --output="$d/u.ts"',
    "openssl enc -aes-256-cbc -in src/b.ts -out u.ts",
    "openssl req -new -keyout u.ts -out /tmp/c.pem",
    "quicktype -l ts -o u.ts a.json",
    "npx quicktype --out u.ts a.json",
    "json2ts -i a.json -o u.ts",
    "json2ts a.json u.ts",
    "xmllint --format x.xml --output u.ts",
  ]);
  allows(box, ["uniq -c src/b.ts", "uniq src/b.ts", "history -w", "history 20", "git diff --output=/tmp/d.diff", "git diff --output-indicator-new=x", "git format-patch -1", "git format-patch -o /tmp/p -1", "git format-patch --stdout -1", "openssl enc -in u.ts -out /tmp/x", "xmllint --format u.ts", "quicktype -l ts a.json"]);
  assert.equal(await writes(box, "git format-patch -o src -1 --suffix=.txt"), ["glob:src/*.txt"], "its patches, by their suffix");
});

Tools("should read the writes in sed, awk, Vim, ex and ed scripts", async ({ box }) => {
  file(box, "w.sed", "s/a/b/\nw u.ts\n");
  file(box, "w.awk", '{ print > "u.ts" }\n');
  denies(box, [
    "sed -n 'w u.ts' src/b.ts",
    "sed 's/x/y/w u.ts' src/b.ts",
    "sed -e 's/x/y/' -e 'W u.ts' src/b.ts",
    "sed -f w.sed src/b.ts",
    "printf 'w u.ts\\n' > /tmp/x.sed; sed -f /tmp/x.sed src/b.ts",
    'sed -f "$f" src/b.ts',
    "sed 'e rm u.ts' src/b.ts",
    "sed 's/.*/rm u.ts/e' src/b.ts",
    "gsed -i 's/a/b/' u.ts", // GNU sed by Homebrew's name
    "gsed -n 'w u.ts' src/b.ts",
    'sed "$script" src/b.ts',
    "awk '{print > \"u.ts\"}' src/b.ts",
    "awk '{print $1 >> \"u.ts\"}' src/b.ts",
    "awk -v out=u.ts '{print > out}' src/b.ts",
    "awk '{print | \"sh\"}' src/b.ts",
    "awk 'BEGIN { system(\"rm u.ts\") }'",
    "awk -f w.awk src/b.ts",
    'awk "$prog" src/b.ts',
    "vim -c 'w! u.ts' -c q src/b.ts",
    "vim +'w u.ts' +q src/b.ts",
    "vim -c 'e u.ts' -c 'norm ggdd' -c wq src/b.ts",
    "vim -c 'g/x/w u.ts' -c q src/b.ts",
    "vim -c '!rm u.ts' -c q src/b.ts",
    "ex -sc 'w! u.ts|q' src/b.ts",
    "ex -s src/b.ts <<'X'\nsav u.ts\nq\nX",
    "ex -s src/b.ts < /dev/null",
    "ed -s src/b.ts <<< 'w u.ts'",
    "ed -s src/b.ts <<'X'\nf u.ts\nw\nX",
    "printf ',s/a/b/\\nw u.ts\\n' | ed -s src/b.ts",
    "printf -- 'w %s\\n' u.ts | ed -s src/b.ts",
    "echo() { printf 'w u.ts\\n'; }; echo w | ed -s src/b.ts", // a function's own output
  ]);
  allows(box, [
    "sed -n '/start/,/end/p' src/b.ts",
    "gsed -i 's/a/b/' src/b.ts",
    "sed -f missing.sed src/b.ts",
    "sed -i 's/a|b/c/g;$!N;/^$/d;1~2d;y/abc/xyz/' src/b.ts",
    'sed -i "s/x/$v/" src/b.ts',
    "sed ':a;N;$!ba;s/\\n/ /g' src/b.ts",
    "sed -n 's/x/y/w /dev/stdout' src/b.ts",
    "awk '$1 > 5 { print ($2 > 1) }' src/b.ts",
    "awk -F: '/a|b/ { n++ } END { print n > \"/dev/stderr\" }' src/b.ts",
    "awk '{ s += $1 / 2 } END { print s }' src/b.ts",
    "vim -es -c '%s/a|b/c/g' -c wq src/b.ts",
    "vim -c 'g/x/d' -c 'wq' src/b.ts",
    "vim +10 src/b.ts",
    "ex -s src/b.ts <<'X'\n%s/a/b/g\nw\nq\nX",
    "ed -s src/b.ts <<'X'\n,s/a/b/g\na\nw u.ts\n.\nw\nq\nX",
    "printf ',s/a/b/\\nw\\n' | ed -s src/b.ts", // the script printf's escapes give: it writes src/b.ts alone
    "printf '%s\\n' ',s/a/b/' w | ed -s src/b.ts",
  ]);
  assert.equal(await writes(box, "sed -n 'w out.txt' src/b.ts"), ["out.txt"]);
});

Tools("should read a program run under a name of its version or build as that program", ({ box }) => {
  denies(box, [
    "perl5.36.0 -pi -e s/x/y/ u.ts",
    "ruby3.1 -e 'File.write(\"u.ts\", \"x\")'",
    "/usr/bin/ruby3.1 -e 'File.delete(\"u.ts\")'",
    "php8.2 -r 'file_put_contents(\"u.ts\", \"x\");'",
    "vim.basic -es -c '%s/x/y/|wq' u.ts",
    "vim.tiny -es -c wq u.ts",
    "view -es -c '%s/x/y/|wq!' u.ts",
    "rvim -es -c wq u.ts",
    "editor -es -c wq u.ts",
    "rename.ul u.ts v.ts u.ts",
  ]);
  allows(box, ["perl5.36.0 -e 'print 1'", "ruby3.1 -v", "php8.2 -r 'echo 1;'", "vim.basic -es -c '%s/x/y/|wq' src/b.ts"]);
  // A script of the project's by such a name is that script, read for what it runs.
  file(box, "scripts/editor", "#!/bin/sh\nrm u.ts\n");
  chmodSync(join(box.project, "scripts/editor"), 0o755);
  denies(box, ["./scripts/editor", "scripts/editor --fix"]);
});

Tools("should judge go fix's packages as go fmt's, and gofumpt -w's files as gofmt's", async ({ box }) => {
  held(box, "pkg/a.go");
  held(box, "main.go");
  const cases: Array<[string, string[]]> = [
    ["go fix ./pkg", ["pkg"]],
    ["go fix ./...", ["glob:**"]],
    ["go fix", ["glob:*"]], // the package where it runs
    ["go -C pkg fix", ["glob:pkg/*"]],
    ["go fix -fix context ./pkg", ["pkg"]], // -fix takes a value
    ["go fix -tags=integration ./pkg/...", ["glob:pkg/**"]],
    ["go fix -diff ./...", []], // prints the changes
    ["gofumpt -w main.go", ["main.go"]],
    ["gofumpt -extra -lang go1.22 -w pkg", ["pkg"]],
    ["gofumpt -l main.go", []],
    ["gofumpt -d main.go", []],
    ["gofumpt -w=false main.go", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["go fix ./pkg", "go fix ./...", "go fix", "cd pkg && go fix", "gofumpt -w main.go", "gofumpt -l -w ."]);
  allows(box, ["go fix -diff ./...", "go fix ./other", "gofumpt -l main.go", "gofumpt -d .", "go vet ./..."]);
});

Tools("should judge dotnet format, swift-format, zig fmt, taplo fmt, buf format -w and tflint --fix by what they rewrite, and their checks as nothing", async ({ box }) => {
  held(box, "src/App/Program.cs");
  held(box, "Sources/App/main.swift");
  held(box, "build.zig");
  held(box, "Cargo.toml");
  held(box, "proto/a.proto");
  held(box, "infra/main.tf");
  const cases: Array<[string, string[]]> = [
    ["dotnet format src/App/App.csproj", ["glob:src/App/**"]], // the project's directory
    ["dotnet format whitespace src --verbosity diag", ["glob:src/**"]],
    ["dotnet format --include src/App/Program.cs src/App/Other.cs --severity warn", ["glob:**"]], // --include's words are no project
    ["dotnet format --report out src", ["glob:src/**", "out/format-report.json"]],
    ["dotnet format --verify-no-changes", []],
    ["swift-format -i Sources/App/main.swift", ["Sources/App/main.swift"]],
    ["swift-format format --in-place -r --configuration .swift-format Sources", ["Sources"]],
    ["swift format -i -r Sources", ["Sources"]],
    ["swift-format Sources/App/main.swift", []], // prints
    ["swift-format lint -r Sources", []],
    ["zig fmt build.zig src", ["build.zig", "src"]],
    ["zig fmt --check .", []],
    ["taplo fmt Cargo.toml", ["Cargo.toml"]],
    ["taplo format --option indent_string='  ' Cargo.toml", ["Cargo.toml"]],
    ["taplo fmt --check", []],
    ["taplo fmt --diff Cargo.toml", ["Cargo.toml"]], // prints the changes, and writes them
    ["buf format -w proto", ["proto"]],
    ["buf format -o out proto", ["out"]],
    ["buf format -d", []],
    ["tflint --fix", ["glob:*"]],
    ["tflint --chdir infra --fix", ["glob:infra/*"]],
    ["tflint --recursive --fix", ["glob:**"]],
    ["tflint --recursive", []],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
  denies(box, [
    "dotnet format",
    "dotnet format style src/App",
    "swift-format -i -r Sources",
    "swift format --in-place Sources/App/main.swift",
    "zig fmt build.zig",
    "taplo fmt",
    "taplo format Cargo.toml",
    "buf format -w",
    "buf format --write proto",
    "tflint --chdir=infra --fix",
    "tflint --fix --recursive",
  ]);
  allows(box, ["dotnet format --verify-no-changes", "dotnet format other/x.csproj", "swift-format lint -r Sources", "swift-format Sources/App/main.swift", "zig fmt --check build.zig", "taplo fmt --check", "taplo fmt other.toml", "buf format", "buf lint", "tflint --chdir infra", "tflint --fix --chdir other"]);
});

Tools("should judge autoflake -i, pyupgrade, mdformat, nbstripout and jupyter nbconvert by the files they rewrite or write, and their checks as nothing", async ({ box }) => {
  held(box, "app.py");
  held(box, "README.md");
  held(box, "nb/a.ipynb");
  held(box, "nb/a.html");
  file(box, "nb/j.ipynb", '{"metadata": {"language_info": {"name": "julia", "file_extension": ".jl"}}}\n');
  const cases: Array<[string, string[]]> = [
    ["autoflake -i app.py", ["app.py"]],
    ["autoflake --in-place --imports requests -r src", ["src"]], // --imports takes a value
    ["autoflake app.py", []], // prints a diff
    ["autoflake -i --check app.py", []],
    ["pyupgrade --py311-plus app.py", ["app.py"]],
    ["python3 -m pyupgrade app.py", ["app.py"]],
    ["mdformat --wrap 80 README.md docs", ["README.md", "docs"]],
    ["mdformat --check README.md", []],
    ["nbstripout nb/a.ipynb", ["nb/a.ipynb"]],
    ["nbstripout --extra-keys metadata.kernelspec nb/a.ipynb", ["nb/a.ipynb"]],
    ["nbstripout -t nb/a.ipynb", []],
    ["nbstripout --dry-run nb/a.ipynb", []],
    ["nbstripout --install --attributes .gitattributes", [".gitattributes"]],
    ["jupyter nbconvert --inplace nb/a.ipynb", ["nb/a.ipynb"]],
    ["jupyter nbconvert --to notebook --inplace --execute nb/a.ipynb", ["nb/a.ipynb", "unknown:."]], // its code runs too: a notebook of no project's, any file
    ["jupyter nbconvert --clear-output nb/a.ipynb", ["nb/a.ipynb"]],
    ["jupyter nbconvert nb/a.ipynb", ["nb/a.html"]], // html by default, beside the notebook
    ["jupyter nbconvert --to notebook nb/a.ipynb", ["nb/a.nbconvert.ipynb"]],
    ["jupyter nbconvert --to=markdown --output-dir docs nb/a.ipynb", ["docs/a.md", "glob:docs/a_files/**"]],
    ["jupyter nbconvert --to script nb/j.ipynb", ["nb/j.jl"]], // its language's extension
    ["jupyter nbconvert --to html --output report nb/a.ipynb", ["nb/report.html"]],
    ["jupyter nbconvert --to script --stdout nb/a.ipynb", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, [
    "autoflake -i --remove-all-unused-imports app.py",
    "pyupgrade app.py",
    "mdformat .",
    "nbstripout nb/a.ipynb",
    "jupyter nbconvert --inplace nb/a.ipynb",
    "jupyter nbconvert --to notebook --inplace nb/*.ipynb",
    "jupyter nbconvert --to html nb/a.ipynb",
    "jupyter-nbconvert --clear-output nb/a.ipynb",
  ]);
  allows(box, ["autoflake app.py", "autoflake --check app.py", "mdformat --check README.md", "nbstripout -t nb/a.ipynb", "nbstripout --verify nb/a.ipynb", "jupyter nbconvert --to script nb/j.ipynb", "jupyter nbconvert --to html --stdout nb/a.ipynb"]);
});

Tools("should judge clang-tidy -fix, google-java-format -i, stylua, phpcbf and standardrb --fix by the files they rewrite, and their checks as nothing", async ({ box }) => {
  held(box, "src/a.c");
  held(box, "include/a.h");
  held(box, "src/A.java");
  held(box, "init.lua");
  held(box, "src/a.php");
  held(box, "lib/a.rb");
  const headers = ["unknown:*.h", "unknown:*.hh", "unknown:*.hpp", "unknown:*.hxx"];
  const cases: Array<[string, string[]]> = [
    ["clang-tidy -fix src/b.c", ["src/b.c", ...headers]], // and the headers it includes, wherever they are
    ["clang-tidy --fix-errors -p build -checks '-*,modernize-*' src/b.c -- -Iinclude", ["src/b.c", ...headers]],
    ["clang-tidy -fix -header-filter= src/b.c", ["src/b.c"]],
    ["clang-tidy -export-fixes fixes.yaml src/a.c", ["fixes.yaml"]],
    ["clang-tidy src/a.c", []],
    ["clang-tidy -fix=false src/a.c", []],
    ["google-java-format -i src/A.java", ["src/A.java"]],
    ["google-java-format --replace --lines 1:20 src/A.java", ["src/A.java"]],
    ["google-java-format -i @sources.txt", ["unknown:."]],
    ["google-java-format src/A.java", []], // prints
    ["google-java-format -n -i src/A.java", []],
    ["stylua init.lua lua", ["init.lua", "lua"]],
    ["stylua -f stylua.toml init.lua", ["init.lua"]],
    ["stylua --check init.lua", []],
    ["phpcbf --standard=PSR12 src", ["src"]],
    ["phpcbf --runtime-set testVersion 8.1 src/a.php", ["src/a.php"]],
    ["phpcbf --suffix=.fixed src/a.php", ["src/a.php.fixed"]],
    ["phpcbf", ["."]],
    ["phpcbf -i", []],
    ["standardrb --fix lib", ["lib"]],
    ["standardrb --fix", ["."]],
    ["standardrb lib", []],
    ["standardrb --fix --no-fix lib", []],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
  denies(box, [
    "clang-tidy -fix src/a.c",
    "clang-tidy -fix src/b.c", // include/a.h, which it may include
    "clang-tidy -export-fixes=src/a.c src/b.c",
    "google-java-format -i src/A.java",
    "google-java-format -replace src/A.java",
    "stylua .",
    "phpcbf src/a.php",
    "phpcbf",
    "standardrb --fix lib/a.rb",
    "standardrb --fix-unsafely",
  ]);
  allows(box, ["clang-tidy src/a.c", "clang-tidy -fix -header-filter= src/b.c", "google-java-format src/A.java", "google-java-format --dry-run -i src/A.java", "stylua --check .", "phpcbf --suffix=.fixed src/a.php", "standardrb lib", "phpcbf -i"]);
});

Tools("should judge lz4, brotli, compress and uncompress by the twin each writes, and uudecode by the name its input gives", async ({ box }) => {
  file(box, "a.uu", "begin 644 u.ts\nM9FEX\n`\nend\n");
  file(box, "b.uu", "begin-base64 644 src/b.ts\nZml4\n====\n");
  const cases: Array<[string, string[]]> = [
    ["lz4 -d u.ts.lz4", ["u.ts"]],
    ["lz4 u.ts.lz4", ["u.ts"]], // decompressed, by its extension
    ["unlz4 u.ts.lz4", ["u.ts"]],
    ["lz4 -9 src/b.ts", ["src/b.ts.lz4"]],
    ["lz4 -d a.lz4 out.txt", ["out.txt"]],
    ["lz4 -d -m --rm a.lz4 b.lz4", ["a", "a.lz4", "b", "b.lz4"]],
    ["lz4 -dc u.ts.lz4", []],
    ["brotli -d u.ts.br", ["u.ts"]],
    ["brotli src/b.ts", ["src/b.ts.br"]],
    ["brotli -j -S .brz src/b.ts", ["src/b.ts", "src/b.ts.brz"]],
    ["brotli -d -o out.txt a.br", ["out.txt"]],
    ["brotli -dc u.ts.br", []],
    ["uncompress u.ts.Z", ["u.ts", "u.ts.Z"]],
    ["compress src/b.ts", ["src/b.ts", "src/b.ts.Z"]],
    ["uncompress -c u.ts.Z", []],
    ["uudecode a.uu", ["u.ts"]],
    ["uudecode b.uu", ["b.ts", "src/b.ts"]], // BSD's keeps the base name
    ["uudecode -o out.bin a.uu", ["out.bin"]],
    ["uudecode missing.uu", []],
    ["uudecode -p a.uu", []],
    ["cat a.uu | uudecode", ["unknown:."]],
    ["uudecode <<'E'\nbegin 644 u.ts\nM9FEX\n`\nend\nE", ["u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["lz4 -d u.ts.lz4", "unlz4 -f u.ts.lz4", "lz4 -d x.lz4 u.ts", "brotli -d u.ts.br", "brotli -df -o u.ts x.br", "uncompress u.ts.Z", "compress u.ts", "uudecode a.uu", "uudecode -o u.ts b.uu", "curl -s https://example.com/x.uu | uudecode"]);
  allows(box, ["lz4 -dc u.ts.lz4", "lz4 -d src/b.ts.lz4", "brotli -t u.ts.br", "brotli u.ts", "uncompress -c u.ts.Z", "uudecode b.uu", "uudecode -p a.uu", "lz4 -l u.ts.lz4"]);
});

Tools("should judge mmv and its kin as writing any file, the names their patterns make not given by the text, and -n as listing them", async ({ box }) => {
  for (const command of ["mmv '*.ts' '#1.js'", "mmv -r 'u.*' 'v.#1'", "mcp 'src/*.ts' 'bak/#1.ts'", "mln 'a*' 'b#1'", "mmv < pairs.txt"]) assert.equal(await writes(box, command), ["unknown:."], command);
  assert.equal(await writes(box, "mmv -n '*.ts' '#1.js'"), []);
  denies(box, ["mmv '*.ts' '#1.js'", "mmv -x ';*.ts' '#1#2.js'", "mcp 'src/*' 'u#1'"]);
  allows(box, ["mmv -n '*.ts' '#1.js'"]);
});

Tools.run();
