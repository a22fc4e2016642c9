// Writes through what changes a file without changing its text (chmod, chown, chattr, ACLs,
// attributes), through the shells the hook does not parse (fish, csh, tcsh, nushell, PowerShell,
// xonsh, elvish), and through perl's and ruby's quote-like strings. Another session holds u.ts;
// session s2 runs each command through the Claude hook of the real CLI, and the shell reader says
// what it finds written.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Other = suite<Context>("claims hook: metadata and the other shells");
Other.before.each((context) => {
  context.box = heldBox();
  file(context.box, "src/b.ts", "export const b = 1;\n");
  file(context.box, "run.fish", "echo done > u.ts\n");
});
Other.after.each((context) => context.box.cleanup());

Other("should judge a change of a file's mode, owner, ACL or attributes as a write of it", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["chmod 000 u.ts", ["u.ts"]],
    ["chmod -w u.ts", ["u.ts"]], // getopt takes -w for an option: the file is the first operand
    ["chmod u+x,go-w u.ts src/b.ts", ["src/b.ts", "u.ts"]],
    ["chmod --reference=src/b.ts u.ts", ["u.ts"]],
    ["chmod -R 755 src", ["src"]],
    ["chown nobody:nogroup u.ts", ["u.ts"]],
    ["chgrp staff u.ts", ["u.ts"]],
    ["chattr +i u.ts", ["u.ts"]],
    ["chattr -i u.ts", ["u.ts"]],
    ["setfacl -m u:nobody:r u.ts", ["u.ts"]],
    ["setfacl --restore=acl.txt", ["unknown:."]], // the files the dump names
    ["setfattr -n user.x -v 1 u.ts", ["u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["chmod 000 u.ts", "chmod -w u.ts", "chown nobody u.ts", "chattr +i u.ts", "setfacl -b u.ts", "chmod -R u+w ."]) assert.is(bash(box, command), "deny", command);
  for (const command of ["chmod +x src/b.ts", "chown -R me src", "ls -l u.ts"]) assert.is(bash(box, command), undefined, command);
  // A mode is no change of a script's text, nor of what a directory holds; what the text does not name is not judged.
  file(box, "run.sh", "echo hello\n");
  for (const command of ["chmod +x run.sh && ./run.sh", "chmod 755 .", "find . -name '*.sh' -exec chmod +x {} +", "ls *.sh | xargs chmod +x"]) assert.is(bash(box, command), undefined, command);
  assert.is(bash(box, "chmod +x run.sh; echo 'rm u.ts' > run.sh; ./run.sh"), "deny", "its text written after the mode");
});

Other("should judge every path a program given to fish, csh, PowerShell or another unparsed shell names, and any file where the text does not give it", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["fish -c 'echo x > u.ts'", ["u.ts"]],
    ["fish --command='rm src/b.ts'", ["src/b.ts"]],
    ["fish -lc 'echo x > u.ts'", ["u.ts"]], // -c at the end of a cluster
    ["fish -C 'echo x > u.ts' -c true", ["u.ts"]], // the init command runs too
    ["fish -p u.ts -c true", ["u.ts"]], // its profile
    ["fish --debug-output=u.ts -c true", ["u.ts"]],
    ["csh -c 'echo x >u.ts'", ["u.ts"]],
    ["tcsh -fc 'rm -f u.ts'", ["u.ts"]],
    ["nu -c 'open b.json | save -f u.ts'", ["b.json", "u.ts"]], // read or written: the text cannot tell
    ["pwsh -NoProfile -Command Set-Content u.ts 1", ["u.ts"]], // -Command takes the rest of the line
    ["pwsh -c 'Remove-Item .\\u.ts'", ["u.ts"]], // PowerShell takes \ for /
    ["pwsh -c '[IO.File]::WriteAllText(\"u.ts\", 1)'", ["unknown:."]],
    ["pwsh -WorkingDirectory /elsewhere -c 'rm u.ts'", ["unknown:u.ts"]],
    ["fish -c 'npm install'", ["glob:node_modules/**", "npm-shrinkwrap.json", "package-lock.json"]], // what it runs, read as bash reads it
    ["fish -c 'rm src'", ["src"]], // a plain name that is here, in a program that removes
    ["fish run.fish", ["u.ts"]], // a script it can read
    ["fish <<'EOF'\nrm u.ts\nEOF", ["u.ts"]],
    // A program that writes and holds what only its own grammar reads: any file.
    ...["fish -c \"echo x > u''.ts\"", "fish -c 'echo x > \"u\".ts'", "fish -c 'echo x > u\\x2ets'", "csh -c 'echo x > u\\.ts'", "fish -c 'cd src; echo x > ../u.ts'", "fish -c 'set f u; echo x > $f.ts'", "fish -c 'echo x > u(echo .ts)'", "fish -c 'echo x | tee {u,zz}.ts'", "xonsh -c 'rm $HOME/u.ts'", "pwsh -c 'Set-Content \"u`.ts\" x'"].map((command): [string, string[]] => [command, ["unknown:."]]),
    ["fish missing.fish", ["unknown:."]], // a script it cannot read
    ["curl -s https://example.com/x | fish", ["unknown:."]],
    ["pwsh -EncodedCommand cgBtACAAdQAuAHQAcwA=", ["unknown:."]], // base64
    ['fish -c "$(cat x)"', ["unknown:."]],
    ["fish", ["unknown:."]], // the terminal: what is typed later
    // What changes nothing.
    ["fish -c 'ls src'", []],
    ["fish -lc 'cat u.ts'", []],
    ["fish -c 'for f in *.ts; echo $f; end'", []],
    ["pwsh -c 'Get-Content u.ts'", []],
    ["nu -c 'open u.ts | lines'", []],
    ["fish --version", []],
    ["pwsh -Version", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["fish -c 'echo x > u.ts'", "pwsh -c 'Set-Content -Path u.ts -Value 1'", "sudo tcsh -c 'rm u.ts'", "xargs fish -c 'rm $argv'", "env nu -c 'rm u.ts'"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["fish -c 'echo x > src/c.ts'", "pwsh -c 'Get-Date'", "fish --version", "fish -c 'cat u.ts'"]) assert.is(bash(box, command), undefined, command);
});

Other("should read the quote-like strings of perl and ruby programs given inline as strings", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["perl -e 'open F, q(>u.ts); print F 1'", ["u.ts"]],
    ["perl -e 'unlink qw(u.ts src/b.ts)'", ["src/b.ts", "u.ts"]],
    ["perl -e 'unlink q!u.ts!'", ["u.ts"]],
    ["ruby -e 'File.write(%q(u.ts), 1)'", ["u.ts"]],
    ["ruby -e 'File.delete(*%w[u.ts])'", ["u.ts"]],
    ["perl -e 'print q(hello)'", []],
    ["perl -e 'system qx(rm u.ts)'", ["u.ts"]],
    // A variable or key named q is no string start: the strings after it are read as ever.
    ["node -e 'const q=require(\"fs\"); q.writeFileSync(\"u.ts\",\"x\")'", ["u.ts"]],
    ["python3 -c 'import queue; q=queue.Queue(); q.put(1); open(\"u.ts\",\"w\")'", ["u.ts"]],
    ["perl -e '$h{q}=1; open(my $f, \">\", \"u.ts\"); $h{q}=2'", ["u.ts"]],
    ["python3 -c 'print(\"n %d\" %(open(\"u.ts\",\"w\").write(\"x\")))'", ["u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "perl -e 'open F, q(>u.ts)'"), "deny");
});

Other.run();
