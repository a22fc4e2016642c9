// Commands whose program, script or command line is a word the text does not fix: a variable, a
// line read at run time (`read -r x`), a substitution. The hook cannot read such a program, so it
// may write any file (`gdb -ex "$x"`, `make --eval "$x"`); where the text fixes it, it is read as
// before. Another session holds u.ts; session s2 runs each command through the Claude hook of the
// real CLI, and the shell reader says what it finds written.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Unfixed = suite<Context>("claims hook: a program the text does not fix");
Unfixed.before.each((context) => {
  context.box = heldBox();
});
Unfixed.after.each((context) => context.box.cleanup());

/** Each command may write any file: the reader finds a write it cannot name, and the hook refuses it. */
async function anyFile(box: Sandbox, commands: string[]): Promise<void> {
  for (const command of commands) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
    assert.is(bash(box, command), "deny", command);
  }
}

Unfixed("should judge a debugger's command the text does not name as writing any file", async ({ box }) => {
  await anyFile(box, ['gdb -batch -ex "$x" ./a.out', 'read -r c; gdb -batch -ex "$c" ./a.out', "gdb -batch -ex `cat cmd` ./a.out", 'lldb -o "$x" ./a.out']);
  // With the value joined to the option by `=`, as gdb takes it too.
  await anyFile(box, ['gdb -batch -ex="$x" ./a.out', 'gdb -batch --eval-command="$x" ./a.out', 'gdb -batch -x="$f" ./a.out']);
  assert.equal(await writes(box, 'gdb -batch --cd="$d" -ex=bt ./a.out'), []);
  // A command it names, with a value the text does not fix, is read by its name.
  assert.equal(await writes(box, 'gdb -batch -ex "attach $PID" -ex bt'), []);
  assert.equal(await writes(box, 'gdb -batch -ex "print $x"'), []);
});

Unfixed("should read make's --eval text where there is no makefile, and judge text the command does not fix as any file", async ({ box }) => {
  await anyFile(box, ['make -E "$x"', 'make --eval "$x"', 'x=$(cat rules.mk); make --eval "$x" all']);
  // make reads --eval's text with no makefile too: its $(shell …) runs, its rules' recipes run.
  assert.equal(await writes(box, "make -E 'x := $(shell rm u.ts)'"), ["u.ts"]);
  assert.equal(await writes(box, "make --eval 'all: ; rm u.ts'"), ["u.ts"]);
  assert.equal(await writes(box, "make -E 'all: ; @echo hi'"), []);
  assert.equal(await writes(box, "make"), []);
});

Unfixed("should read an editor variable the command sets to a line the text does not fix as any file, for each program that runs its editor", async ({ box }) => {
  await anyFile(box, ['EDITOR="$x" git commit', 'read -r e; VISUAL="$e" git commit', 'VISUAL=$(cat ed) crontab -e', 'export EDITOR="$x"; git tag -a v1', 'SUDO_EDITOR="$x" sudoedit /etc/hosts']);
  // Its value read as the editor's command line where the text fixes it; a plain editor writes its own file alone.
  assert.equal(await writes(box, "EDITOR='rm u.ts; :' git commit"), ["u.ts"]);
  assert.equal(await writes(box, "EDITOR=vim git commit"), []);
  assert.equal(await writes(box, 'EDITOR="$x" git commit -m wip'), []);
});

Unfixed("should judge an interpreter's options variable, or startup script, set to a value the text does not fix as any file, whatever program reads it", async ({ box }) => {
  // `--require ./x.js`, `-Mx`, `-rx`: code loaded before the program, from what the text does not give.
  await anyFile(box, ['BASH_ENV="$f" ./run.sh', 'BASH_ENV="$f" make', 'ZDOTDIR="$d" zsh -c "echo hi"']);
  await anyFile(box, ['NODE_OPTIONS="$x" node -e 1', 'read -r o; NODE_OPTIONS="$o" npm test', "NODE_OPTIONS=$(cat opts) npx jest", 'export NODE_OPTIONS="$x"; tsc', 'env NODE_OPTIONS="$x" node -e 1', 'PERL5OPT="$x" perl -e 1', 'RUBYOPT="$x" bundle exec rake']);
  // A value the text fixes is read as before.
  assert.equal(await writes(box, "NODE_OPTIONS=--max-old-space-size=4096 node -e 1"), []);
  assert.equal(await writes(box, "RUBYOPT=-W0 ruby -e 1"), []);
});

Unfixed("should judge a database console's commands the text does not give as any file, and read mysql's as psql's are", async ({ box }) => {
  // mysql's `system`, `\\!` and `tee`, psql's `\\!` and `\\o`: in commands the text does not give, or in a file it reads.
  await anyFile(box, ['mysql -e "$sql" db', 'read -r q; mariadb -e "$q"', "mysql -e 'system rm u.ts'", "mysql -e '\\! rm u.ts'", 'mysql db <<< "$q"', "mysql db < q.sql", 'psql <<< "$q"', "psql db < q.sql", "cat q.sql | psql"]);
  assert.equal(await writes(box, "mysql --tee=u.ts -e 'select 1'"), ["u.ts"]);
  // psql reads a PSQLRC the command sets, of meta-commands, with -c too (not with -X).
  await anyFile(box, ['PSQLRC="$rc" psql -c "select 1"', "PSQLRC=x.rc psql -c 'select 1'"]);
  assert.equal(await writes(box, 'PSQLRC="$rc" psql -X -c "select 1"'), []);
  // Queries the text gives, also through echo, write nothing.
  for (const command of ["mysql -uroot -psecret -e 'show tables' db", "mysql db <<< 'select 1'", "echo 'select 1' | mysql db", "echo 'select 1' | psql", "psql -c 'select 1' < /dev/null"]) {
    assert.equal(await writes(box, command), [], command);
  }
});

Unfixed("should judge a command a launcher runs, named by a word the text does not fix, and an at job the text does not give, as any file", async ({ box }) => {
  // As `sudo "$cmd"` is: the command could be any, writing any file.
  await anyFile(box, ['systemd-run "$cmd"', 'gdb --args "$c" a', 'lldb -- "$c" a', 'watch -x "$c" a']);
  // at's job: sh reads it again, a part the text does not fix with it; from a file or a pipe, the text does not give it.
  await anyFile(box, ['at now <<< "$job"', "at now <<EOF\n$job\nEOF", 'batch <<< "$job"', "at now < job.sh", 'echo "$job" | at now']);
  assert.equal(await writes(box, "at now <<< 'echo hi'"), []);
  // A job file the command writes first: what it writes, not what the disk held before.
  file(box, "job.sh", "echo hi\n");
  assert.equal(await writes(box, "echo 'rm u.ts' > job.sh; at now -f job.sh"), ["job.sh", "u.ts"]);
  assert.ok((await writes(box, "cp other.sh job.sh; at now -f job.sh")).includes("unknown:."));
  assert.equal(await writes(box, "at -l"), []);
  assert.equal(await writes(box, "gdb --args ./a.out x"), []);
});

Unfixed("should read the jobs of a table crontab installs as commands run later, and one the text does not give as any file", async ({ box }) => {
  // cron runs each job later from the home, by sh: read as a line run there.
  const held = `${box.project}/u.ts`;
  assert.is(bash(box, `crontab - <<'EOF'\n# nightly\nMAILTO=""\n*/5 * * * * cd ${box.project} && rm u.ts\nEOF`), "deny");
  assert.is(bash(box, `crontab <<< '@daily rm -f ${held}'`), "deny");
  assert.equal(await writes(box, `crontab - <<'EOF'\n0 3 * * * sed -i s/a/b/ ${held} %input\nEOF`), ["u.ts"]);
  file(box, "jobs.txt", `0 * * * * rm ${held}\n`);
  assert.is(bash(box, "crontab jobs.txt"), "deny");
  // One the command writes first, by text it gives: that text.
  assert.equal(await writes(box, `cat > jobs2.txt <<'EOF'\n0 * * * * rm ${held}\nEOF\ncrontab jobs2.txt`), ["jobs2.txt", "u.ts"]);
  file(box, "quiet.txt", "0 * * * * echo hi > /dev/null\n");
  assert.equal(await writes(box, "crontab quiet.txt"), []);
  // From a pipe: what echo and printf add to the user's table, which a filter only shortens.
  for (const command of [`echo '* * * * * rm ${held}' | crontab -`, `(crontab -l; echo '0 * * * * rm ${held}') | crontab -`, `{ crontab -l 2>/dev/null || true; printf '@daily rm -f ${held}\\n'; } | crontab -`]) {
    assert.equal(await writes(box, command), ["u.ts"], command);
  }
  assert.equal(await writes(box, `(crontab -l; printf -- '* * * * * rm ${held}\\n') | crontab -`), ["u.ts"]);
  assert.equal(await writes(box, "true | crontab - < jobs.txt"), ["u.ts"], "its input is the file's, not the pipe's");
  for (const command of ["(crontab -l; echo '0 * * * * echo hi') | crontab -", "crontab -l | grep -v nightly | crontab -", "crontab -l | sort | crontab -", "crontab -u bob -l | crontab -u bob -"]) assert.equal(await writes(box, command), [], command);
  // From any other pipe (a grep reading a file of its own, a function named as echo or true, another
  // user's table given this one's jobs), one its input is not (`< f`), a file it cannot read, or a
  // line it cannot take apart: any file.
  await anyFile(box, ["(crontab -l; echo \"$job\") | crontab -", "cat jobs.txt | crontab -", "crontab -l | sed s/a/b/ | crontab -", "crontab -l | grep -o 'rm.*' | crontab -", "crontab -l | grep -v foo jobs.txt | crontab -", "true() { cat jobs.txt; }; (crontab -l; true) | crontab -", "(crontab -l; echo '* * * * * true') | crontab -u bob -", "printf '* * * * * true\\n' > j3.cron; true | crontab - < j3.cron", "crontab missing.txt", "crontab <<< 'not a job'", "crontab - <<'EOF'\nSHELL=/usr/bin/python3\n* * * * * import os\nEOF"]);
  // Another user's table: its jobs run from that user's home, a place unknown here.
  assert.equal(await writes(box, "crontab -u bob - <<'EOF'\n* * * * * rm notes.txt\nEOF"), ["unknown:notes.txt"]);
  // Listing, removing, checking: no table installed.
  for (const command of ["crontab -l", "crontab -l | grep x", "crontab -r", "crontab -u app -l"]) assert.equal(await writes(box, command), [], command);
});

Unfixed("should read less's preprocessor a LESSOPEN the command sets as a command line, any file where the text does not fix it", async ({ box }) => {
  await anyFile(box, ['LESSOPEN="$x" less a.txt', 'read -r p; LESSOPEN="$p" git log', 'LESSCLOSE="$x" less a.txt']);
  assert.equal(await writes(box, "LESSOPEN='|rm u.ts %s' less a.txt"), ["u.ts"]);
  assert.equal(await writes(box, "LESSOPEN='| lesspipe %s' less a.txt"), []);
});

Unfixed("should judge a config file the command has git read, or a HOME it does not fix, as any file: it may name commands git runs", async ({ box }) => {
  // GIT_CONFIG_GLOBAL=x.cfg git status runs x.cfg's core.fsmonitor; git st its alias.st.
  await anyFile(box, ["GIT_CONFIG_GLOBAL=x.cfg git status", 'GIT_CONFIG_GLOBAL="$cfg" git status', "GIT_CONFIG_SYSTEM=x.cfg git log", 'HOME="$h" git st']);
  assert.equal(await writes(box, "GIT_CONFIG_GLOBAL=/dev/null git status"), []);
  assert.equal(await writes(box, "HOME=/tmp git status"), []);
});

Unfixed("should judge npm's scripts run by a shell, or with node options, the text does not fix as any file", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { test: "echo ok" } }));
  await anyFile(box, ['npm test --script-shell="$sh"', "npm test --script-shell=./sh.sh", 'npm_config_script_shell="$sh" npm test', 'npm test --node-options="$o"', 'npm_config_node_options="$o" npm run test']);
  for (const command of ["npm test", "npm test --script-shell=bash", 'npm run test -- --script-shell="$x"']) assert.equal(await writes(box, command), [], command);
});

Unfixed("should judge sort's compress program, which it runs as its input spills to disk, as any file unless a known compressor", async ({ box }) => {
  await anyFile(box, ['sort --compress-program "$x" -S 1K a', "sort --compress-program=./c.sh a"]);
  assert.equal(await writes(box, "sort --compress-program=gzip -o out a"), ["out"]);
});

Unfixed("should judge an array the text does not fill, run as a command, as any file", async ({ box }) => {
  // Its words are the command and its arguments: `mapfile` and `read -a` take them from a file or a line.
  await anyFile(box, ['mapfile -t c < cmds; "${c[@]}"', 'read -ra c < cmds; "${c[@]}"', 'IFS=" " read -r -a c <<< "$x"; "${c[@]}"', "${c[*]} x"]);
  assert.equal(await writes(box, 'c=(rm u.ts); "${c[@]}"'), ["u.ts"]);
  assert.equal(await writes(box, 'c=(echo hi); "${c[@]}"'), []);
});

Unfixed("should judge an unquoted variable the text sets to a value it does not fix, or a substitution, run as a command with arguments, as any file", async ({ box }) => {
  // bash splits the value into the command and its first arguments: `rm u.ts` as much as anything.
  await anyFile(box, ['read -r c; $c a', "c=$(cat cmd); $c a", "export c=`cat cmd`; $c -v", "$(echo rm) a", "`cat cmd` a"]);
  // One of the environment's is judged by the arguments the text gives, a fixed one by its value.
  assert.equal(await writes(box, "$EDITOR a"), ["a"]);
  assert.equal(await writes(box, "c=rm; $c a"), ["a"]);
  assert.equal(await writes(box, "PY=python3; $PY -c 'print(1)'"), []);
});

Unfixed("should judge a gawk library or extension the text does not fix, or one of the command's own, as any file", async ({ box }) => {
  // `-i "$lib"` may be inplace (rewriting a.txt) as much as any library's code.
  await anyFile(box, ['gawk -i "$lib" "{print}" a.txt', 'gawk -l "$ext" "BEGIN{}"', 'gawk --load "$x" "BEGIN{}"', "gawk -i ./lib.awk '{print}' a.txt", "gawk -l ./ext.so 'BEGIN{}'"]);
  assert.equal(await writes(box, "gawk -l readdir '{print}' ."), []);
  assert.equal(await writes(box, "gawk -i getopt '{print}' a.txt"), []);
});

Unfixed("should judge a command a runner runs after its subcommand, named by a word the text does not fix, as any file", async ({ box }) => {
  await anyFile(box, ['mise exec -- "$cmd"', 'nix develop -c "$cmd"', 'read -r c; mise x -- "$c" a']);
  assert.equal(await writes(box, "mise exec -- node -v"), []);
  assert.equal(await writes(box, 'f() { sudo "$@"; }; f ls'), []);
});

Unfixed("should judge tmux commands that run tmux commands it does not read, and a pane piped to a command, as what they may run", async ({ box }) => {
  await anyFile(box, ['tmux source-file "$f"', "tmux if-shell true 'run-shell \"rm u.ts\"'", 'tmux -f "$conf" new -d', "tmux bind-key r run-shell ./x.sh"]);
  assert.equal(await writes(box, "tmux pipe-pane -o 'cat >> u.ts'"), ["u.ts"]);
  for (const command of ["tmux new-session -d -s w", "tmux capture-pane -p -t w", "tmux -f /dev/null new -d"]) assert.equal(await writes(box, command), [], command);
});

Unfixed("should judge the files git's trace variables the command sets name, any file where the text does not fix them", async ({ box }) => {
  await anyFile(box, ['GIT_TRACE="$f" git status', 'export GIT_TRACE2_EVENT="$f"; git log']);
  assert.equal(await writes(box, `GIT_TRACE=${box.project}/u.ts git status`), ["u.ts"]);
  assert.is(bash(box, `GIT_TRACE_PACKET=${box.project}/u.ts git fetch`), "deny");
  assert.equal(await writes(box, "GIT_TRACE=1 git status"), []);
});

Unfixed("should judge an interpreter's program file the text does not fix as writing any file, and read each of a few it gives", async ({ box }) => {
  // Read as `bash "$f"` was: the program may be any file an agent wrote.
  await anyFile(box, ['python3 "$script"', 'script=$(mktemp); python3 "$script"', 'node "$f"', 'ruby "$1"', 'perl "$f"', "python3 $(ls *.py | head -1)", "node `cat which`", 'python3 "${SCRIPT:-gen.py}"']);
  file(box, "a.py", "print(1)\n");
  file(box, "b.py", "import os\nos.remove('u.ts')\n");
  assert.equal(await writes(box, 'for f in a.py; do python3 "$f"; done'), []);
  assert.equal(await writes(box, 'f=a.py; python3 "$f" --verbose'), []);
  assert.equal(await writes(box, 'for f in a.py b.py; do python3 "$f"; done'), ["u.ts"]);
  assert.is(bash(box, 'for f in a.py b.py; do python3 "$f"; done'), "deny");
  // In a place the text does not fix, or an installed program found by name: not read, as before.
  for (const command of ['python3 "$VIRTUAL_ENV/bin/pip" list', 'node "$(npm root -g)/x/cli.js"', "node $(which tsc) -v", 'python "$(which pip)" list', 'python3 "scripts/$name.py"']) assert.equal(await writes(box, command), [], command);
});

Unfixed.run();
