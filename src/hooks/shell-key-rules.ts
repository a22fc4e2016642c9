// Key and certificate tools: openssl, whose options are single-dash words (`-out f`, `-out=f`,
// `--out f`) read here by hand, naming the files it writes and the code it loads (engines,
// providers, a config that loads them); ssh-keygen, the key files and beside-files each of its
// modes writes and the libraries it loads; ssh-add, the libraries it loads; the variables that
// make a program load a library (SSH_SK_PROVIDER, LD_PRELOAD), whatever the program, and the
// askpass program ssh and its kin run (SSH_ASKPASS); and less's preprocessor (LESSOPEN).
import { join } from "node:path";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { anyIn, anyUnder, directoryAt, type Environment, HOLE, judgedPath, outputs, readText, shellQuoted, UNKNOWABLE, type Walk, writtenBefore } from "./shell-words.js";

/**
 * Whether the command sets a variable of its environment (`X=v cmd`, `export X=v`) to a value
 * other than the one the hook runs with, or to one the text does not fix; not to none.
 */
export function setByCommand(environment: Environment, name: string): boolean {
  return Object.hasOwn(environment, name) && environment[name] !== "" && (environment[name] === undefined || environment[name] !== process.env[name]);
}

/**
 * The variables that make a program load a library, its code run as this user: ssh's security key
 * provider (SSH_SK_PROVIDER, which ssh, ssh-add, ssh-keygen and the programs that run ssh read), the
 * dynamic linker's preloads and auditors (LD_PRELOAD, LD_AUDIT, macOS's DYLD_INSERT_LIBRARIES).
 */
const LIBRARY_VARIABLES = ["SSH_SK_PROVIDER", "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"];

/** Whether a command runs with a library the command itself names loaded (LIBRARY_VARIABLES): then any file. */
export const loadsNamedLibrary = (environment: Environment): boolean => LIBRARY_VARIABLES.some((name) => setByCommand(environment, name));

/**
 * The input preprocessor a LESSOPEN (or LESSCLOSE) the command sets names, which less runs through
 * a shell on each file it opens (`|cmd %s`, `||cmd %s`, `cmd %s`), and so does what runs less (git's
 * pager, man): the command lines, read in turn, `%s` a file of no one's; UNKNOWABLE where the text
 * does not fix one (`LESSOPEN="$x" less f`).
 */
export function lessPreprocessors(environment: Environment): string[] | typeof UNKNOWABLE {
  const lines: string[] = [];
  for (const name of ["LESSOPEN", "LESSCLOSE"]) {
    if (!setByCommand(environment, name)) continue;
    const value = environment[name];
    if (value === undefined) return UNKNOWABLE;
    lines.push(value.replace(/^\|{0,2}-?/, "").replaceAll("%s", "/dev/null"));
  }
  return lines;
}

/** The programs that run SSH_ASKPASS for a passphrase or a confirmation where they have no terminal, as an agent's shell has none. */
const ASKING = ["ssh", "ssh-add", "ssh-keygen", "scp", "sftp", "ssh-agent"];

/**
 * The program an SSH_ASKPASS the command sets names, run (with no shell between, given the prompt)
 * by ssh and its kin (ASKING): a command line, read in turn; undefined where it runs none, UNKNOWABLE
 * where the text does not fix it.
 */
export function askpassRun(name: string, environment: Environment): string | undefined {
  if (!ASKING.includes(name) || !setByCommand(environment, "SSH_ASKPASS")) return undefined;
  const program = environment.SSH_ASKPASS;
  return program === undefined ? UNKNOWABLE : `${shellQuoted(program)} prompt`;
}

/**
 * openssl's options that name a file it writes: the output, key, random state, public key, signer
 * and CA certificates (`-certsout`, cmp's `-certout`, `-chainout`, `-extracertsout`, `-cacertsout`,
 * `-crlout` and its key-update certificates), a session, TLS key log or message trace (s_client,
 * s_server), OCSP's request and response, srp's verifier file, x509's `-CAserial`.
 */
const OPENSSL_WRITES = new Set(
  `out keyout writerand outpubkey certsout sess_out keylogfile msgfile respout reqout rspout certout chainout extracertsout
  cacertsout crlout oldwithold newwithnew newwithold oldwithnew srpvfile CAserial`.split(/\s+/),
);

/** openssl's options whose value is code it loads, or a place it loads code from, or a config that may name some. */
const OPENSSL_LOADS = new Set(["engine", "provider", "provider-path", "config"]);

/** openssl's other options whose value is read here: x509's CA and serial, req's key, cms's and smime's signer. */
const OPENSSL_READ = new Set(["outdir", "CA", "key", "newkey", "set_serial", "signer"]);

/** An option word of openssl's: its name, and its value where the word holds one (`-out=f`); undefined for an operand. */
function opensslOption(word: string): { name: string; value?: string } | undefined {
  const match = /^--?([^-=][^=]*)(?:=(.*))?$/s.exec(word);
  if (match === null) return undefined;
  return match[2] === undefined ? { name: match[1] as string } : { name: match[1] as string, value: match[2] };
}

/**
 * A config file openssl reads (`-config`, an OPENSSL_CONF the command sets): one the hook cannot
 * read (a name the text does not fix, one the command writes first), or one that loads code or
 * other files (a provider's `module`, an engine's `dynamic_path` or `SO_PATH`, `.include`), any
 * file; else the files it names that openssl writes: `RANDFILE`, saved at exit, and req's
 * `default_keyfile` (`keyFile`). One not there stops openssl before it writes.
 */
function opensslConfig(input: RuleInput, file: string | undefined, keyFile: boolean): string[] {
  const { walk } = input;
  const path = directoryAt(walk.cwd, file);
  if (path === undefined || writtenBefore(walk, path)) return [UNKNOWABLE];
  const text = readText(path);
  if (text === undefined) return []; // none there: openssl stops
  const lines = configLines(text);
  if (loadsCode(lines)) return [UNKNOWABLE];
  const values = (key: string) => lines.flatMap((line) => new RegExp(`^${key}\\s*=\\s*(.+)$`).exec(line)?.[1] ?? []);
  // (`$ENV::HOME/.rnd` is the user's home; another variable, a name the text does not give.)
  const named = [...values("RANDFILE"), ...(keyFile ? values("default_keyfile") : [])].map((name) => name.replace(/^\$ENV::HOME\//, `${walk.home}/`));
  return named.map((name) => (name.includes("$") ? UNKNOWABLE : name));
}

/** An OpenSSL config's lines, comments cut. */
const configLines = (text: string): string[] => text.split(/\r?\n/).map((line) => line.replace(/#.*$/, "").trim());

/** Whether an OpenSSL config loads code or other files: a provider's `module`, an engine's `dynamic_path` or `SO_PATH`, `.include`. */
const loadsCode = (lines: string[]): boolean => lines.some((line) => /^(\.?include\b|module\s*=|dynamic_path\s*=|SO_PATH\b)/i.test(line));

/**
 * Whether a program other than openssl (curl, python, git, node: any that uses the OpenSSL
 * library) may load code through the OpenSSL settings the command gives it: a directory of
 * engines or providers (OPENSSL_ENGINES, OPENSSL_MODULES), or a config (OPENSSL_CONF) the hook
 * cannot read (a name the text does not fix, one the command writes first) or that loads code
 * (loadsCode). The library reads its config where the program starts it, as openssl does; one not
 * there is passed over. openssl itself is read by its rule (opensslWrites).
 */
export function loadsOpensslCode(name: string, walk: Walk): boolean {
  if (name === "openssl") return false;
  const set = (variable: string) => setByCommand(walk.environment, variable);
  if (set("OPENSSL_ENGINES") || set("OPENSSL_MODULES")) return true;
  if (!set("OPENSSL_CONF")) return false;
  const path = directoryAt(walk.cwd, walk.environment.OPENSSL_CONF);
  if (path === undefined || writtenBefore(walk, path)) return true;
  const text = readText(path);
  return text !== undefined && loadsCode(configLines(text));
}

/**
 * openssl COMMAND [options]: the files its options name (OPENSSL_WRITES), as `-opt f`, `-opt=f` or
 * `--opt f` (openssl takes all three), judged where the text does not fix them; ca's `-outdir`
 * (anything under it) and the database and serial files its config names (any file; ts's serial
 * file too, where it makes a reply), rehash's directories, x509's serial file beside its `-CA`
 * (`ca.pem`: `ca.srl`), req's new key without `-keyout` (the config's `default_keyfile`,
 * privkey.pem in the one the system gives), cms's and smime's `-signer` when they verify. Code it
 * loads: `-engine` or `-provider` by path, `-provider-path`, an OPENSSL_ENGINES or OPENSSL_MODULES
 * the command sets, `openssl engine` given a library or `-pre`, a config (opensslConfig): any
 * file. A word whose option name the text does not fix and that may be one of these (`-out"$x"`,
 * which may be `-out=…`, `-"$opt"`): any file.
 */
function opensslWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  const written: string[] = [];
  const set = (name: string) => setByCommand(walk.environment, name);
  if (set("OPENSSL_ENGINES") || set("OPENSSL_MODULES")) return [UNKNOWABLE];
  const words = args.map((arg, at) => arg ?? input.text(at) ?? HOLE);
  const command = words.find((word) => !word.startsWith("-"));
  const given = new Map<string, Array<string | undefined>>();
  let ended = false;
  for (let at = 0; at < words.length; at++) {
    const word = words[at] as string;
    if (word === "--") ended = true;
    const option = ended ? undefined : opensslOption(word);
    if (option === undefined) continue;
    if (option.name.includes(HOLE)) {
      // `-"$opt"`, `-out"$x"`: a name the text does not fix, which may be any that writes or loads.
      const fixed = option.name.slice(0, option.name.indexOf(HOLE));
      if ([...OPENSSL_WRITES, ...OPENSSL_LOADS, "outdir", "CA"].some((name) => name.startsWith(fixed))) return [UNKNOWABLE];
      continue;
    }
    const known = OPENSSL_WRITES.has(option.name) || OPENSSL_LOADS.has(option.name) || OPENSSL_READ.has(option.name);
    if (!known) continue;
    // Its value: after `=` in the word, else the next word (which is then no option).
    const next = option.value === undefined ? at + 1 : undefined;
    if (next !== undefined) at++;
    const value = option.value !== undefined ? (option.value.includes(HOLE) ? undefined : option.value) : args[next as number];
    given.set(option.name, [...(given.get(option.name) ?? []), value]);
    if (OPENSSL_WRITES.has(option.name)) {
      if (option.value !== undefined) written.push(...outputs([judgedPath(option.value)]));
      else if (next !== undefined && next < args.length) written.push(...outputs(input.values([next])));
    }
  }
  const values = (name: string) => given.get(name) ?? [];
  const loadsFile = (value: string | undefined) => value === undefined || value.includes("/");
  if (values("engine").some(loadsFile) || values("provider").some(loadsFile) || given.has("provider-path")) return [UNKNOWABLE];
  if ((command === "cms" || command === "smime") && verifies(words)) written.push(...values("signer").flatMap((file) => (file === undefined ? [UNKNOWABLE] : [file])));
  if (command === "engine") {
    const operands = words.slice(words.indexOf("engine") + 1).filter((word) => !word.startsWith("-"));
    if (operands.some((word) => word.includes("/") || word.includes(HOLE)) || words.some((word) => /^--?(pre|post)$/.test(word))) return [UNKNOWABLE];
  }
  // ca's database and serial files, and ts's serial file where it makes a reply (not one it reads, -in), as their config names them: any file.
  if (command === "ca" && !words.some((word) => /^--?help$/.test(word))) written.push(UNKNOWABLE);
  if (command === "ts" && words.some((word) => /^--?reply$/.test(word)) && !words.some((word) => /^--?in(=|$)/.test(word))) written.push(UNKNOWABLE);
  if (command === "rehash" || command === "c_rehash") written.push(...words.slice(words.indexOf(command) + 1).filter((word) => !word.startsWith("-")).map((directory) => (directory.includes(HOLE) ? UNKNOWABLE : anyIn(directory))));
  for (const directory of values("outdir")) written.push(directory === undefined ? UNKNOWABLE : anyUnder(directoryAt(walk.cwd, directory)));
  // x509 -CA: the serial number it takes is kept in a file beside the CA's (`ca.pem`: `ca.srl`), unless -CAserial names one or -set_serial gives it.
  if (command === "x509" && given.has("CA") && !given.has("CAserial") && !given.has("set_serial")) {
    for (const ca of values("CA")) written.push(ca === undefined ? UNKNOWABLE : `${ca.lastIndexOf(".") === -1 ? ca : ca.slice(0, ca.lastIndexOf("."))}.srl`);
  }
  // req making a key with no -keyout (`-newkey`, or `-new`/`-x509` with no -key) writes it where its config's default_keyfile says.
  const newKey = command === "req" && !given.has("keyout") && (given.has("newkey") || (!given.has("key") && words.some((word) => /^--?(new|x509)$/.test(word))));
  const config = given.has("config") ? values("config").at(-1) : set("OPENSSL_CONF") ? walk.environment.OPENSSL_CONF : null;
  if (config !== null) written.push(...opensslConfig(input, config, newKey));
  else if (newKey) written.push("privkey.pem"); // the system's config: default_keyfile = privkey.pem
  return written;
}

/** Whether cms or smime verifies (its `-signer` then names the file it writes the signers' certificates to). */
const verifies = (words: string[]) => words.some((word) => /^--?(verify|verify_receipt)$/.test(word));

/**
 * The key files ssh-keygen generates or rewrites (`-p` the private key, `-c` both): `-f`'s, each
 * with its `.pub` (`-p`: the private key only); with no -f, the name typed at its prompt, read from
 * its input (a pipe the text does not give: any file), else the user's ~/.ssh/id_*.
 */
function sshKeyFiles(input: RuleInput, publicToo: boolean): string[] {
  const { reading, walk } = input;
  const withPublic = (key: string) => (key === UNKNOWABLE || !publicToo ? [key] : [key, `${key}.pub`]);
  if (reading.has("f")) return optionFiles(input, ["f"]).flatMap(withPublic);
  if (input.stdin !== undefined) {
    const typed = input.stdin.split(/\r?\n/)[0]?.trim() ?? "";
    if (typed !== "") return withPublic(typed.startsWith("~/") ? join(walk.home, typed.slice(2)) : typed);
  } else if (input.fed === true) return [UNKNOWABLE];
  return withPublic(globOf(join(walk.home, ".ssh/id_*")));
}

/**
 * ssh-keygen, by its modes (each as ssh-keygen takes them, several of them at once judged by all):
 * a new key (no mode: sshKeyFiles, and `-O write-attestation=`'s file), `-p`/`-c` rewriting one,
 * `-R`/`-H` rewriting known_hosts (`-f`'s, else ~/.ssh/known_hosts) and keeping `.old`, `-s`
 * writing each key's `-cert.pub` (`k.pub`: `k-cert.pub`), `-Y sign` each file's `.sig`, `-k` the
 * KRL `-f` names, `-K` the resident keys it downloads here (`id_*_rk*`), `-M` its output operand
 * (and the older `-G`/`-T` theirs), `-A` the host keys under `-f`'s prefix (else /etc/ssh). A
 * library it loads (`-D` PKCS#11, `-w` FIDO provider but `internal`): any file. `-l`, `-y`, `-e`,
 * `-i`, `-F`, `-L`, `-Q` and `-Y`'s checks print.
 */
function sshKeygenWrites(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("D") || reading.values("w").some((provider) => provider !== "internal")) return [UNKNOWABLE];
  const files = input.values(reading.operands);
  const written: string[] = [];
  const options = reading.values("O");
  for (const option of options) {
    if (option === undefined) written.push(UNKNOWABLE);
    else if (option.startsWith("write-attestation=")) written.push(option.slice("write-attestation=".length));
  }
  if (reading.has("Y")) written.push(...(reading.value("Y") === "sign" ? files.map((file) => `${file}.sig`) : reading.value("Y") === undefined ? [UNKNOWABLE] : []));
  if (reading.has("s")) written.push(...files.map((file) => `${file.replace(/\.pub$/, "")}-cert.pub`));
  if (reading.has("k")) written.push(...optionFiles(input, ["f"]));
  if (reading.has("R", "H")) written.push(...(reading.has("f") ? optionFiles(input, ["f"]) : [join(walk.home, ".ssh/known_hosts")]).flatMap((file) => [file, `${file}.old`]));
  if (reading.has("K")) written.push(globOf("id_*_rk*"));
  if (reading.has("M")) written.push(...files);
  written.push(...optionFiles(input, ["G", "T"]));
  if (reading.has("A")) written.push(...(reading.has("f") ? optionFiles(input, ["f"]).map((prefix) => anyUnder(prefix === UNKNOWABLE ? undefined : join(prefix, "etc/ssh"))) : [anyUnder("/etc/ssh")]));
  if (reading.has("p")) written.push(...sshKeyFiles(input, false));
  if (reading.has("c")) written.push(...sshKeyFiles(input, true));
  const mode = reading.has("y", "l", "B", "e", "i", "x", "X", "F", "r", "Q", "L", "K", "Y", "s", "k", "R", "H", "p", "c", "M", "G", "T", "A");
  return mode ? written : [...written, ...sshKeyFiles(input, true)];
}

/** ssh-add's options that take a value; `-s`/`-S` name a library it (or the agent, for it) loads. */
const SSH_ADD = { short: "E:e:s:S:t:H:h:T:" };

export const KEY_RULES: Record<string, Rule> = {
  openssl: { syntax: {}, writes: opensslWrites },
  "ssh-keygen": { syntax: { short: "C:D:E:F:G:I:J:M:N:O:P:R:S:T:V:W:Y:Z:a:b:f:j:m:n:r:s:t:w:z:" }, writes: sshKeygenWrites },
  // ssh-add -s: a PKCS#11 library the agent loads (as this user); -S: a FIDO provider it loads. (-e removes one: nothing loaded.)
  "ssh-add": { syntax: SSH_ADD, writes: (input) => (input.reading.has("s", "S") ? [UNKNOWABLE] : []) },
};
