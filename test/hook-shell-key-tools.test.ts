// The files key tools write and the code they load through their options: gpg's status, log and
// attribute files, the keyrings and trust database it updates, the programs it starts (its agent,
// dirmngr, a photo viewer), gpg-agent's and gpgsm's, gpgv's `-o`; openssl's options in each form it takes them (`-out f`,
// `-out=f`, `--out f`), the files they name and the code it loads (engines, providers, a config
// that loads them); ssh-keygen's modes, the files each writes, the libraries ssh's tools and
// SSH_SK_PROVIDER load, the askpass program SSH_ASKPASS names. Another session holds u.ts; session
// s2 runs each command through the Claude hook of the real CLI.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Keys = suite<Context>("claims hook: files key tools write and code they load");
Keys.before.each((context) => {
  context.box = heldBox();
});
Keys.after.each((context) => context.box.cleanup());

Keys("should read the files gpg's own options write and the programs they start", async ({ box }) => {
  file(box, "agent.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "params.txt", "Key-Type: eddsa\nKey-Curve: ed25519\nName-Real: x\n%pubring u.ts\n%commit\n");
  file(box, "plain.txt", "Key-Type: eddsa\nKey-Curve: ed25519\nName-Real: x\n%commit\n");
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
    // A new key's parameters may name the keyring it goes to; parameters the hook cannot read may name any.
    "gpg --batch --gen-key params.txt",
    "gpg --batch --generate-key <<'EOF'\nKey-Type: eddsa\n%pubring u.ts\n%commit\nEOF",
    "cat params.txt | gpg --batch --gen-key",
    'gpg --batch --gen-key "$params"',
    // gpg-agent's log and the programs and command it starts; gpgsm's output.
    "gpg-agent --log-file u.ts --daemon",
    "gpg-agent --daemon sh -c 'rm u.ts'",
    "gpg-agent --pinentry-program ./agent.sh --daemon",
    "gpgsm --output u.ts --export",
    "gpgsm -o u.ts --export",
    // gpgv's `-o`: the signed data it takes out.
    "gpgv -o u.ts a.sig",
    "gpgv --output=u.ts a.sig",
  ]);
  assert.equal(await writes(box, "gpg --status-file st.txt --logger-file log.txt --list-keys"), ["log.txt", "st.txt"]);
  assert.equal(await writes(box, "gpg --homedir keys --keyring pub.kbx --trustdb-name ./t.gpg --import k.asc"), ["keys/pub.kbx", "t.gpg"]);
  // Their own files elsewhere, a descriptor, a socket: as before.
  allows(box, ["gpg --keyring u.ts --import k.asc", "gpg --status-fd 1 --verify a.sig", "gpg --status-file st.txt --verify a.sig", "gpg --logger-file socket:///tmp/s --list-keys", "gpgv --keyring ./u.ts a.sig", "gpg --batch --gen-key plain.txt", "gpg-agent --daemon", "gpgsm --list-keys"]);
});

Keys("should read the files openssl's options write, in each form it takes them, and the code it loads", async ({ box }) => {
  file(box, "plain.cnf", "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = x\n");
  file(box, "keyfile.cnf", "[req]\ndefault_keyfile = u.ts\ndistinguished_name = dn\n[dn]\n");
  file(box, "rand.cnf", "RANDFILE = u.ts\n[req]\ndistinguished_name = dn\n[dn]\n");
  file(box, "more.cnf", ".include other.cnf\n");
  file(box, "module.cnf", "openssl_conf = init\n[init]\nproviders = p\n[p]\nx = xs\n[xs]\nmodule = ./x.so\nactivate = 1\n");
  claims(["take", join(box.project, "privkey.pem"), "--dir", box.dir, "--holder", "other", "--purpose", "the key"]);
  claims(["take", join(box.project, "ca.srl"), "--dir", box.dir, "--holder", "other", "--purpose", "the serial"]);
  denies(box, [
    // `-opt=value` and `--opt value` are openssl's too; an option the text does not fix may be any.
    "openssl genrsa -out=u.ts 2048",
    "openssl req --out u.ts -new -key k.pem",
    'openssl genrsa -out"$x" 2048',
    'openssl genrsa -"$opt" u.ts 2048',
    // Files other options write.
    "openssl genpkey -algorithm ed25519 -outpubkey u.ts -out k.pem",
    "openssl s_client -connect h:443 -sess_out u.ts",
    "openssl s_client -connect h:443 -keylogfile=u.ts",
    "openssl s_server -msgfile u.ts -cert c.pem",
    "openssl ocsp -issuer c.pem -cert s.pem -reqout u.ts",
    "openssl ocsp -respin r.der -respout u.ts",
    "openssl cms -verify -in m.p7s -signer u.ts",
    "openssl smime -verify -in m.p7s -signer u.ts",
    "openssl cms -sign -in x -signer s.pem -out o.p7s -certsout u.ts",
    "openssl cmp -server h -certout u.ts",
    "openssl srp -srpvfile u.ts -add alice",
    "openssl x509 -req -in r.csr -CA c.pem -CAkey k.pem -CAserial u.ts -out o.pem",
    "openssl x509 -req -in r.csr -CA ca.pem -CAkey k.pem -CAcreateserial -out o.pem", // ca.pem's serial: ca.srl
    "openssl rehash .",
    "openssl ca -config c.cnf -in r.csr -out o.pem", // its database and serial files, as its config names them
    "openssl ts -reply -queryfile q.tsq -out o.tsr",
    // A key req makes with no -keyout goes where the config's default_keyfile says (privkey.pem in the system's).
    "openssl req -newkey rsa:2048 -nodes -subj /CN=x -out r.csr",
    "openssl req -x509 -nodes -subj /CN=x -out c.pem",
    "openssl req -config keyfile.cnf -new -out r.csr",
    "openssl req -config rand.cnf -new -key k.pem -out r.csr", // RANDFILE, saved at exit
    "OPENSSL_CONF=rand.cnf openssl req -new -key k.pem -out r.csr",
    // Code it loads: an engine or a provider by path, a place to load them from, a config that loads or includes more.
    "openssl x509 -in c.pem -engine ./e.so -noout",
    "openssl req -new -key k.pem -provider-path ./p -provider x -out r.csr",
    "openssl list -providers -provider ./p.so",
    "openssl engine ./e.so",
    "openssl engine dynamic -pre SO_PATH:./e.so -pre LOAD",
    "OPENSSL_MODULES=./m openssl list -providers",
    "openssl req -config more.cnf -new -key k.pem -out r.csr",
    "openssl req -config module.cnf -new -key k.pem -out r.csr",
    "OPENSSL_CONF=module.cnf openssl version",
    'openssl req -config "$cnf" -new -key k.pem -out r.csr',
  ]);
  assert.equal(await writes(box, "openssl x509 -req -in r.csr -CA ca/c.pem -CAkey k.pem -out o.pem"), ["ca/c.srl", "o.pem"]);
  assert.equal(await writes(box, "openssl req -newkey rsa:2048 -keyout k.pem -out=r.csr"), ["k.pem", "r.csr"]);
  // Reading, writing elsewhere, a plain config, a serial given, an engine by its name: as before.
  allows(box, [
    "openssl x509 -in c.pem -noout -text",
    "openssl genrsa -out k.pem 2048",
    "openssl req -new -key k.pem -subj /CN=x -out r.csr",
    "openssl req -config plain.cnf -new -key k.pem -out r.csr",
    "openssl x509 -req -in r.csr -CA c.pem -CAkey k.pem -set_serial 1 -out o.pem",
    "openssl s_client -connect h:443 -engine pkcs11",
    "openssl cms -sign -in x -signer u.ts -out o.p7s",
    "openssl ts -reply -in r.tsr -text",
  ]);
});

Keys("should read the files ssh-keygen's modes write and the libraries ssh's tools load", async ({ box }) => {
  file(box, "askpass.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "quiet.sh", "#!/bin/sh\necho secret\n", 0o755);
  denies(box, [
    // A library loaded, its code run as this user: ssh-keygen's PKCS#11 (-D) and FIDO provider (-w), ssh-add's (-s, -S), SSH_SK_PROVIDER's in any program that may run ssh.
    "ssh-keygen -D ./p11.so",
    "ssh-keygen -t ed25519-sk -w ./sk.so -f k",
    "ssh-keygen -K -w ./sk.so",
    "ssh-add -s ./p11.so",
    "ssh-add -S ./sk.so -K",
    "SSH_SK_PROVIDER=./sk.so ssh host true",
    "SSH_SK_PROVIDER=./sk.so ssh-add -K",
    "SSH_SK_PROVIDER=./sk.so git fetch origin",
    "export SSH_SK_PROVIDER=./sk.so; ssh host",
    'SSH_SK_PROVIDER="$lib" scp host:a.txt /tmp/a.txt',
    "LD_PRELOAD=./x.so ls",
    // The askpass program ssh and its kin run, with no terminal, for a passphrase or a confirmation.
    "SSH_ASKPASS=./askpass.sh ssh-add k",
    "SSH_ASKPASS=./askpass.sh SSH_ASKPASS_REQUIRE=force ssh host true",
    "export SSH_ASKPASS=./askpass.sh; scp host:a.txt /tmp/a.txt",
    'SSH_ASKPASS="$helper" ssh-add k',
    "SSH_ASKPASS=./askpass.sh ssh-keygen -p -f key",
    // The files each mode writes.
    "ssh-keygen -t ed25519 -N '' -f u.ts", // u.ts and u.ts.pub
    "ssh-keygen -R host -f u.ts", // known_hosts rewritten, kept as .old
    "ssh-keygen -H -f u.ts",
    "ssh-keygen -p -N new -f u.ts",
    "ssh-keygen -k -f u.ts keys.pub", // the KRL
    "ssh-keygen -M generate -O bits=2048 u.ts",
    "ssh-keygen -M screen -f candidates u.ts",
    "ssh-keygen -t ed25519-sk -O write-attestation=u.ts -f k",
    "ssh-keygen -t ed25519 -N '' <<< u.ts", // the name typed at its prompt
    "echo u.ts | ssh-keygen -t ed25519 -N ''",
  ]);
  assert.equal(await writes(box, "ssh-keygen -s ca -I id -n alice u.pub"), ["u-cert.pub"]);
  assert.equal(await writes(box, "ssh-keygen -Y sign -f key -n file u"), ["u.sig"]);
  assert.equal(await writes(box, "ssh-keygen -R host -f hosts"), ["hosts", "hosts.old"]);
  assert.equal(await writes(box, "ssh-keygen -K"), ["glob:id_*_rk*"]);
  // Printing, a provider of its own, a library removed, writing elsewhere: as before (or as they are now read).
  allows(box, ["ssh-keygen -y -f key", "ssh-keygen -l -f key.pub", "ssh-keygen -t ed25519-sk -w internal -f k", "ssh-add -e ./p11.so", "ssh-add k", "ssh-keygen -t ed25519 -N '' -f k", "ssh host true", "LD_PRELOAD= ls", "SSH_ASKPASS=./quiet.sh ssh-add k", "SSH_ASKPASS=./askpass.sh ls"]);
});

Keys("should read the code an OpenSSL config, or a directory of engines or providers, the command sets has any program that uses the library load", async ({ box }) => {
  file(box, "plain.cnf", "[req]\ndistinguished_name = dn\n[dn]\n");
  file(box, "module.cnf", "openssl_conf = init\n[init]\nproviders = p\n[p]\nx = xs\n[xs]\nmodule = ./x.so\nactivate = 1\n");
  file(box, "more.cnf", ".include other.cnf\n");
  denies(box, [
    "OPENSSL_CONF=module.cnf curl -s https://example.com",
    "OPENSSL_CONF=more.cnf python3 -c 'import ssl'",
    "export OPENSSL_CONF=module.cnf; git fetch",
    'OPENSSL_CONF="$cnf" curl -s https://example.com',
    "OPENSSL_MODULES=./m curl -s https://example.com",
    "OPENSSL_ENGINES=./e node app.js",
    "echo 'module = ./x.so' > gen.cnf; OPENSSL_CONF=gen.cnf curl -s https://example.com", // written first: not read as it is now
  ]);
  // A config that loads nothing, or none there, and no setting at all: as before.
  allows(box, ["OPENSSL_CONF=plain.cnf curl -s https://example.com", "OPENSSL_CONF=none.cnf curl -s https://example.com", "curl -s https://example.com"]);
});

Keys.run();
