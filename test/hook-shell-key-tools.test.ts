// The files key tools write and the code they load through their options: gpg's status, log and
// attribute files, the keyrings and trust database it updates, the programs it starts (its agent,
// dirmngr, a photo viewer), gpgv's `-o`. Another session holds u.ts; session s2 runs each command
// through the Claude hook of the real CLI.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Keys = suite<Context>("claims hook: files key tools write and code they load");
Keys.before.each((context) => {
  context.box = heldBox();
});
Keys.after.each((context) => context.box.cleanup());

/** Every command denied: each writes u.ts, or may write any file. */
function denies(box: Sandbox, commands: string[]): void {
  for (const command of commands) assert.is(bash(box, command), "deny", command);
}

/** Every command allowed: none writes a file another session holds. */
function allows(box: Sandbox, commands: string[]): void {
  for (const command of commands) assert.is(bash(box, command), undefined, command);
}

Keys("should read the files gpg's own options write and the programs they start", async ({ box }) => {
  file(box, "agent.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, [
    "gpg --status-file u.ts --verify a.sig",
    "gpg --status-file=u.ts --list-keys",
    "gpg --logger-file u.ts --list-keys",
    "gpg --log-file=u.ts --list-keys",
    "gpg --attribute-file u.ts --list-keys",
    "gpg2 --status-file u.ts --list-keys",
    // A keyring or trust database named with a `/` is where it says; a bare name, in gpg's home.
    "gpg --keyring ./u.ts --import k.asc",
    "gpg --no-default-keyring --keyring=./u.ts --list-keys",
    "gpg --primary-keyring ./u.ts --import k.asc",
    "gpg --trustdb-name ./u.ts --check-trustdb",
    "gpg --homedir . --keyring u.ts --import k.asc",
    "GNUPGHOME=. gpg --trustdb-name u.ts --check-trustdb",
    'gpg --keyring "$ring" --import k.asc',
    'gpg --status-file "$f" --list-keys',
    // The programs it starts, or finds on a path it is given: code the hook does not read.
    "gpg --agent-program ./agent.sh --list-secret-keys",
    "gpg --dirmngr-program ./agent.sh --recv-keys 0xABCDEF",
    "gpg --exec-path . --list-keys",
    "gpg --photo-viewer 'rm u.ts' --list-options show-photos --list-keys",
    // gpgv's `-o`: the signed data it takes out.
    "gpgv -o u.ts a.sig",
    "gpgv --output=u.ts a.sig",
  ]);
  assert.equal(await writes(box, "gpg --status-file st.txt --logger-file log.txt --list-keys"), ["log.txt", "st.txt"]);
  assert.equal(await writes(box, "gpg --homedir keys --keyring pub.kbx --trustdb-name ./t.gpg --import k.asc"), ["keys/pub.kbx", "t.gpg"]);
  // Their own files elsewhere, a descriptor, a socket: as before.
  allows(box, ["gpg --keyring u.ts --import k.asc", "gpg --status-fd 1 --verify a.sig", "gpg --status-file st.txt --verify a.sig", "gpg --logger-file socket:///tmp/s --list-keys", "gpgv --keyring ./u.ts a.sig"]);
});

Keys.run();
