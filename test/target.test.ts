import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BadInputError } from "../src/os/errors.js";
import picomatch from "picomatch";
import { picomatch as lazyPicomatch } from "../src/targets/picomatch.js";
import { isGlobText } from "../src/targets/overlap.js";
import { bracketFoldedApart } from "../src/targets/glob-syntax.js";
import { foldName } from "../src/targets/caseless.js";
import { claimFileName, DIRECTORY_NAMES, looksLikePath, parseTarget, partsOfFileName, pathItWillBe, targetOfFileName } from "../src/targets/target.js";
import { asOneVerb } from "../src/os/lookups.js";
import { ROOT, sandbox, type Sandbox } from "./helpers.js";

const Kinds = suite<{ box: Sandbox }>("target kinds");
Kinds.before.each((context) => {
  context.box = sandbox();
});
Kinds.after.each((context) => context.box.cleanup());

Kinds("should treat a plain word as a name", ({ box }) => {
  const target = parseTarget("shared-config", { cwd: box.project, home: box.root });
  assert.is(target.kind, "name");
  assert.is(target.canonical, "shared-config");
  assert.is(target.fileName, "shared-config.json");
});

Kinds("should read the words README lists as directories as the directories they will be, and words scripts lock as names", ({ box }) => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
  const listed = /that projects have, where none is yet: (.*?) \(`\.next`/.exec(readme)?.[1] ?? "";
  const words = [...listed.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
  assert.equal([...words].sort(), [...DIRECTORY_NAMES].sort(), "README's Targets lists the words the code reads as directories");
  const context = { cwd: box.project, home: box.root };
  for (const word of words) {
    const target = parseTarget(word, context);
    assert.equal([target.kind, looksLikePath(target), pathItWillBe(word)], ["name", true, { path: `./${word}/`, what: "directory" }], word);
    assert.is(looksLikePath(parseTarget(`name:${word}`, context)), false, `name:${word} is a name on purpose`);
  }
  for (const word of ["shared-config", "deploy", "db-migrations", "migrate-db", "release", "migrations", "config", "deploy-lock"]) {
    assert.is(looksLikePath(parseTarget(word, context)), false, word);
  }
  mkdirSync(join(box.project, "build"));
  assert.equal([parseTarget("build", context).kind, parseTarget("build", context).canonical], ["directory", `${box.project}/build/`], "a word naming a directory there is that directory");
});

Kinds("should treat a word naming a file in the current directory as that file's path", ({ box }) => {
  writeFileSync(join(box.project, "package.json"), "{}");
  const target = parseTarget("package.json", { cwd: box.project, home: box.root });
  assert.is(target.kind, "path");
  assert.is(target.canonical, join(box.project, "package.json"));
});

Kinds("should give every spelling of one file the same target", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "src", "a.ts"), "");
  symlinkSync(join(box.project, "src"), join(box.root, "link"));
  const context = { cwd: box.project, home: box.root };
  const spellings = ["src/a.ts", "./src/a.ts", join(box.project, "src/a.ts"), join(box.root, "link", "a.ts"), "src/../src/a.ts"];
  const canonical = spellings.map((spelling) => parseTarget(spelling, context).canonical);
  for (const form of canonical) assert.is(form, join(box.project, "src", "a.ts"));
});

Kinds("should give every spelling of one file the same target within one verb, whichever path it resolved first", ({ box }) => {
  // A verb goes on from directories it walked already (src/targets/target.ts, WALKED): what it
  // resolves below them, through a symlink or `..` among them or after them, is what a fresh look finds.
  mkdirSync(join(box.project, "src", "deep"), { recursive: true });
  writeFileSync(join(box.project, "src", "deep", "a.ts"), "");
  symlinkSync(join(box.project, "src"), join(box.project, "link"));
  symlinkSync("deep/a.ts", join(box.project, "src", "alias.ts"));
  const context = { cwd: box.project, home: box.root };
  const real = join(box.project, "src", "deep", "a.ts");
  const spellings = [
    join(box.project, "src", "deep"),
    join(box.project, "src", "deep", "a.ts"),
    join(box.project, "link", "deep", "a.ts"),
    `${box.project}/src/deep/../deep/a.ts`,
    join(box.project, "link", "alias.ts"),
    join(box.project, "src", "alias.ts"),
    "src/deep/../../link/deep/a.ts",
    // Files that do not exist, spelled as the walks above read on past a `..` (`deep/deep`) or an
    // absolute symlink (the link's own text after the project's): taken for the places those
    // walks reached, they would be other files.
    join(box.project, "src", "deep", "deep", "a.ts"),
    join(box.project, box.project.slice(1), "src", "deep", "a.ts"),
  ];
  const fresh = spellings.map((spelling) => parseTarget(spelling, context).canonical);
  assert.equal(fresh.slice(1, 7), spellings.slice(1, 7).map(() => real));
  assert.equal(fresh.slice(7), spellings.slice(7));
  for (let first = 0; first < spellings.length; first++) {
    const order = [spellings[first] as string, ...spellings.filter((_, index) => index !== first)];
    const within = asOneVerb(() => order.map((spelling) => parseTarget(spelling, context).canonical));
    assert.equal(within, order.map((spelling) => fresh[spellings.indexOf(spelling)]), `first ${order[0]}`);
  }
});

Kinds("should resolve symlinks through the longest existing prefix of a file not yet created", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  symlinkSync(join(box.project, "src"), join(box.root, "link"));
  const target = parseTarget(join(box.root, "link", "new", "b.ts"), { cwd: box.project, home: box.root });
  assert.is(target.canonical, join(box.project, "src", "new", "b.ts"));
});

Kinds("should follow a dangling symlink to the file it will create", ({ box }) => {
  mkdirSync(join(box.root, "other"));
  symlinkSync("../other/new.ts", join(box.project, "link.ts"));
  const context = { cwd: box.project, home: box.root };
  assert.is(parseTarget("link.ts", context).canonical, join(box.root, "other", "new.ts"));
  assert.is(parseTarget(join(box.root, "other", "new.ts"), context).canonical, join(box.root, "other", "new.ts"));
});

Kinds("should apply .. after a symlink the way the kernel does", ({ box }) => {
  mkdirSync(join(box.root, "other", "dir"), { recursive: true });
  symlinkSync(join(box.root, "other", "dir"), join(box.project, "d"));
  const target = parseTarget("d/../cfg.json", { cwd: box.project, home: box.root });
  assert.is(target.canonical, join(box.root, "other", "cfg.json"));
});

Kinds("should expand ~ to the home directory", ({ box }) => {
  const target = parseTarget("~/notes/memory.md", { cwd: box.project, home: box.root });
  assert.is(target.canonical, join(box.root, "notes", "memory.md"));
});

Kinds("should spell a lone UTF-16 surrogate as U+FFFD, as the file system gets it, in paths and names", ({ box }) => {
  mkdirSync(join(box.project, "d\ufffd"));
  const context = { cwd: box.project, home: box.root };
  assert.is(parseTarget("d\ud800/x.ts", context).canonical, join(box.project, "d\ufffd", "x.ts"));
  assert.is(parseTarget("d\udc00/", context).canonical, join(box.project, "d\ufffd/"));
  assert.is(parseTarget("name:n\ud800", context).canonical, "n\ufffd");
  assert.is(parseTarget("d\ud83d\ude00/x.ts", context).canonical, join(box.project, "d\ud83d\ude00", "x.ts"), "a pair is one character, kept");
});

Kinds("should normalize names to NFC so visually equal names are one target", ({ box }) => {
  const composed = parseTarget("caf\u00e9", { cwd: box.project, home: box.root });
  const decomposed = parseTarget("cafe\u0301", { cwd: box.project, home: box.root });
  assert.is(composed.fileName, decomposed.fileName);
});

Kinds("should canonicalize a directory with its trailing slash, resolving symlinks", ({ box }) => {
  mkdirSync(join(box.project, "convex", "_generated"), { recursive: true });
  symlinkSync(join(box.project, "convex"), join(box.root, "c"));
  const target = parseTarget(join(box.root, "c", "_generated") + "/", { cwd: box.project, home: box.root });
  assert.is(target.kind, "directory");
  assert.is(target.canonical, join(box.project, "convex", "_generated") + "/");
});

Kinds("should anchor a glob at the directory it was taken from", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  const relative = parseTarget("src/**/*.ts", { cwd: box.project, home: box.root });
  assert.is(relative.kind, "glob");
  assert.is(relative.canonical, join(box.project, "src") + "/**/*.ts");
  assert.is(parseTarget("*.md", { cwd: box.project, home: box.root }).canonical, `${box.project}/*.md`);
});

Kinds("should split a symbol target into its canonical file and the symbol", ({ box }) => {
  writeFileSync(join(box.project, "utils.js"), "");
  const target = parseTarget("./utils.js#formatPrice", { cwd: box.project, home: box.root });
  assert.is(target.kind, "symbol");
  assert.is(target.canonical, `${join(box.project, "utils.js")}#formatPrice`);
  assert.is(target.symbol, "formatPrice");
});

Kinds.run();

const Invalid = suite("invalid targets");
const context = { cwd: "/tmp", home: "/root" };
const cases: Array<[string, string, RegExp]> = [
  ["empty", "", /empty/],
  ["blank", "   ", /empty/],
  ["NUL", "a\u0000b", /control character/],
  ["newline", "a\nb", /control character/],
  ["too long", "x".repeat(3000), /3000 bytes long; targets are limited to 1024/],
  ["negated glob", "!src/*.ts", /negated glob/],
  ["glob with a trailing slash", "src/*/", /write the glob as dir\/\*\*/],
  ["symbol on a glob", "src/*.ts#main", /not one file/],
  ["symbol that is not an identifier", "utils.js#format-price", /not an identifier/],
  ["symbol after two # on no file", "src/utils.ts#a#b", /^Target src\/utils\.ts#a#b has more than one #, and no file src\/utils\.ts#a exists; write file#name with one #, escaping a # of the file's name as \\#\.$/],
  ["symbol after two # under ~", "~/utils.ts#a#b", /^Target ~\/utils\.ts#a#b has more than one #, and no file ~\/utils\.ts#a exists/],
  ["glob with .. in its pattern", "src/*/../a.ts", /\. or \.\. after its first glob character/],
  ["glob ending in .. (that `..` read against the text before it names cwd)", "*/..", /\. or \.\. after its first glob character/],
  ["glob ending in .. after a name pattern", "*.TS/..", /\. or \.\. after its first glob character/],
  ["glob with .. in a brace's alternative", "{src,../other}/*.ts", /\. or \.\. after its first glob character \(a brace's alternatives included\)/],
  ["glob with .. inside a name's braces", "src/{a,../../other/x}.ts", /\. or \.\. after its first glob character/],
  ["glob with . as a brace's alternative", "{.,src}/*.ts", /\. or \.\. after its first glob character/],
  ["path with a name longer than the file system allows", `./${"n".repeat(300)}/x.ts`, /name too long/],
  ["~user", "~bob/x", /~user/],
  ["glob with an unclosed brace", "src/*.{js", /has a \{ without its \}.*src\/\*\.\{js,ts\}/],
  ["glob with a stray closing brace", "src/a}*.ts", /has a \{ without its \}/],
  ["glob with an unclosed bracket", "src/foo*[", /has a \[ without its \].*src\/\[ab\]\.ts/],
  ["glob with a POSIX class", "src/[[:alpha:]]*.ts", /has a POSIX class .* reads each \. of the pattern as any character, a \/ included; write the range instead, as in \[a-zA-Z\]/],
  ["glob with an escaped letter (picomatch: \\d is any digit)", "src/*/\\d.ts", /has a \\ before a letter or digit, which picomatch reads as a regular expression's escape .*; write the character without the \\ \(d for \\d\)/],
  ["glob with an escaped letter after glob:", "glob:src/*\\w.ts", /has a \\ before a letter or digit/],
  ["glob with an escaped letter in a bracket", "src/[\\s_]*.ts", /has a \\ before a letter or digit/],
  ["glob with a brace range past one character (picomatch: [1-12], 1 or 2)", "out/shard-{1..12}.json", /has the brace range \{1\.\.12\}, which picomatch reads as a range only between two single characters .*; write the alternatives out/],
  ["glob with a zero-padded brace range (picomatch: the text itself)", "out/part-{01..03}.csv", /has the brace range \{01\.\.03\}/],
  ["glob with a stepped brace range", "out/{a..e..2}.txt", /has the brace range \{a\.\.e\.\.2\}/],
  ["glob with a range among alternatives", "out/{x,1..3}.txt", /has the brace range \{x,1\.\.3\}/],
  ["glob with a range among alternatives beside a group (picomatch: matches nothing)", "out/{1..12,{a,b}}.txt", /has the brace range \{1\.\.12,\{a,b\}\}/],
  ["glob with a brace range past one character after glob: (a claim of it stands for its directory)", "glob:out/{1..12}.txt", /has the brace range \{1\.\.12\}/],
  ["glob with ** inside a segment", "lib/**.js", /^Target lib\/\*\*\.js has \*\* inside a segment, where it matches as \* does, within one directory; write lib\/\*\*\/\*\.js to reach into subdirectories, or lib\/\*\.js for one\.$/],
  ["glob with *** as a segment", "src/***/x.ts", /write src\/\*\*\/x\.ts to reach into subdirectories, or src\/\*\/x\.ts for one/],
  ["glob with ** beside braces inside a segment", "src/x**{.ts,.js}", /write src\/\*\*\/x\*\{\.ts,\.js\} to reach into subdirectories, or src\/x\*\{\.ts,\.js\} for one/],
];
for (const [label, input, message] of cases) {
  Invalid(`should refuse a ${label} target with a clear sentence`, () => {
    try {
      parseTarget(input, context);
      assert.unreachable("should have thrown");
    } catch (error) {
      assert.instance(error, BadInputError);
      assert.match((error as Error).message, message);
    }
  });
}
Invalid("should accept balanced braces in a glob", () => {
  assert.is(parseTarget("src/*.{js,ts}", context).kind, "glob");
  assert.is(parseTarget("src/{a,{b,c}}/*.ts", context).kind, "glob");
});
Invalid("should read an empty segment in a glob's pattern as a path's, one /, and take ** inside a segment after glob: as picomatch does", () => {
  assert.is(parseTarget("src/*//b.ts", context).canonical, "/tmp/src/*/b.ts");
  assert.is(parseTarget("glob:src/*///b/**", context).canonical, "/tmp/src/*/b/**");
  assert.is(parseTarget("glob:src/**.ts", context).canonical, "/tmp/src/**.ts");
  assert.is(parseTarget("src/{**/a,b}.ts", context).kind, "glob", "** as a whole alternative");
  assert.is(parseTarget("src/\\**x.ts", context).kind, "glob", "an escaped * is a character");
  assert.is(parseTarget("src/[**]x.ts", context).kind, "glob", "so is a bracketed one");
  assert.is(parseTarget("src/[[:]x.ts", context).kind, "glob", "[: without a class name is no POSIX class");
  assert.is(parseTarget("src/[\\\\d]*.ts", context).kind, "glob", "an escaped \\ before a letter is a character");
  assert.is(parseTarget("src/\\.*", context).kind, "glob", "so is an escaped punctuation mark");
  assert.is(parseTarget("out/{1..9}.txt", context).canonical, "/tmp/out/{1..9}.txt", "a range between two characters is the class picomatch reads");
  assert.is(parseTarget("out/{{1..9},x}.txt", context).canonical, "/tmp/out/{{1..9},x}.txt", "a range between two characters in a group of its own, among alternatives");
});
Invalid("should tell the brackets that a fold to lower case (below a directory that ignores case) makes miss a character", () => {
  for (const [glob, bracket] of [["[A-z]oo.ts", "[A-z]"], ["x/[Z-a]q.ts", "[Z-a]"], ["*[^A-Z].ts", "[^A-Z]"], ["[^a-z]x.ts", "[^a-z]"], ["[ab][^AB]", "[^AB]"], ["[À-Þ]", "[À-Þ]"], ["{A..z}oo.ts", "[A-z]"], ["!([A-Z]*).ts", "[A-Z]"], ["x/!([a-z]*)/**", "[a-z]"], ["@(a|!(*[A-Z])).ts", "[A-Z]"]]) {
    assert.is(bracketFoldedApart(glob as string, foldName), bracket, glob);
  }
  for (const glob of ["[A-Z]*.ts", "[a-zA-Z0-9_]*", "[^0-9].ts", "[^._]*", "\\[A-z\\]*", "[[]A].ts", "*.TS", "!([a-zA-Z]*).ts", "x/!(lib)/**", "!([0-9]*).ts", "@([A-Z]*)/!(x).ts"]) assert.is(bracketFoldedApart(glob, foldName), undefined, glob);
});
Invalid("should read [!a] as the shell and git do, anything but a (picomatch alone reads ! or a)", () => {
  assert.is(parseTarget("src/[!a].ts", context).canonical, "/tmp/src/[^a].ts");
  assert.is(parseTarget("src/\\[!a].ts", context).canonical, "/tmp/src/\\[!a\\].ts", "an escaped [ opens no bracket: a path");
  assert.is(parseTarget("glob:src/[!a].ts", context).canonical, "/tmp/src/[!a].ts", "after glob:, as picomatch reads it");
});
Invalid("should accept closed brackets and escaped ones in a glob", () => {
  assert.is(parseTarget("src/[ab].ts", context).kind, "glob");
  assert.is(parseTarget("src/\\[draft*", context).kind, "glob");
});
Invalid.run();

const Names = suite("claim file names");
Names("should keep simple names readable", () => {
  assert.is(claimFileName("shared-config"), "shared-config.json");
  assert.is(claimFileName("v1.2_rc"), "v1.2_rc.json");
});

Names("should never let a separator, dot-dot or a leading dot reach the file system", () => {
  for (const target of ["/etc/passwd", "../../x", "..", ".hidden", "a/../../b"]) {
    const name = claimFileName(target);
    assert.not.ok(name.includes("/"), name);
    assert.not.ok(name.startsWith("."), name);
    assert.ok(name.endsWith(".json"));
  }
});

Names("should spell names as PROTOCOL.md 3 does, byte by byte of UTF-8, hex in upper case", () => {
  assert.is(claimFileName("shared-config"), "shared-config.json");
  assert.is(claimFileName("/work/p/a.ts"), "%2Fwork%2Fp%2Fa.ts.json");
  assert.is(claimFileName(".env"), "%2Eenv.json");
  assert.is(claimFileName("a b~c\u0001"), "a%20b%7Ec%01.json");
  assert.is(claimFileName("/p/caf\u00e9 \u{1F600}.md"), "%2Fp%2Fcaf%C3%A9%20%F0%9F%98%80.md.json");
  assert.is(claimFileName("\u00e9.a"), "%C3%A9.a.json");
  assert.is(claimFileName("del\u007f \u20ac"), "del%7F%20%E2%82%AC.json");
  assert.is(claimFileName("lone\ud800"), "lone%EF%BF%BD.json", "a lone surrogate as UTF-8 spells it: U+FFFD");
});

Names("should be injective: targets that differ get different files", () => {
  const targets = ["a b", "a%20b", "a/b", "a%2Fb", "%2Fa", "/a", "a", "A", ".a", "%2Ea", "caf\u00e9", "x".repeat(300), `${"x".repeat(299)}y`];
  const names = new Set(targets.map(claimFileName));
  assert.is(names.size, targets.length);
});

Names("should bound the length of a file name for a long target", () => {
  const long = `/${"deep/".repeat(150)}file.ts`;
  const name = claimFileName(long);
  assert.ok(Buffer.byteLength(name) <= 255, `${Buffer.byteLength(name)} bytes`);
  assert.ok(name.includes("%~"));
});

Names("should show a shortened name's prefix decoded, cut inside a character or not", () => {
  for (let pad = 0; pad < 4; pad++) {
    // Two-byte characters, shifted by pad bytes: the 120-byte prefix ends inside one for some pad.
    const long = `/${"p".repeat(pad)}/a${"é".repeat(120)}/`;
    const name = claimFileName(long);
    assert.ok(name.includes("%~"), name);
    const shown = targetOfFileName(name);
    assert.ok(shown.endsWith("…") && !shown.includes("%"), `pad ${pad}: ${shown}`);
    assert.ok(long.startsWith(shown.slice(0, -1)), `pad ${pad}: a prefix of the target: ${shown}`);
    assert.is(partsOfFileName(name).prefix, shown.slice(0, -1));
  }
});
Names.run();

const Literal = suite<{ box: Sandbox }>("names with glob and symbol characters");
Literal.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "app", "[id]"), { recursive: true });
  mkdirSync(join(context.box.project, "app", "(group)"), { recursive: true });
  writeFileSync(join(context.box.project, "app", "[id]", "page.tsx"), "export function Page() {}\n");
  writeFileSync(join(context.box.project, "notes#1.md"), "");
});
Literal.after.each((context) => context.box.cleanup());

Literal("should claim an existing directory whose name has glob characters as that directory, with or without the slash", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  for (const spelling of ["app/[id]", "app/[id]/", "./app/[id]", join(box.project, "app/[id]"), "app/\\[id\\]"]) {
    const target = parseTarget(spelling, context);
    assert.is(target.kind, "directory", spelling);
    assert.is(target.canonical, `${box.project}/app/\\[id\\]/`, spelling);
    assert.is(target.path, `${box.project}/app/[id]/`, spelling);
  }
  assert.is(parseTarget("app/(group)", context).canonical, `${box.project}/app/\\(group\\)/`);
});

Literal("should claim an existing file whose name has glob or # characters as that file, and a symbol in it", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  assert.equal(
    [parseTarget("app/[id]/page.tsx", context).kind, parseTarget("app/[id]/page.tsx", context).canonical],
    ["path", `${box.project}/app/\\[id\\]/page.tsx`],
  );
  const symbol = parseTarget("app/[id]/page.tsx#Page", context);
  assert.equal([symbol.kind, symbol.path, symbol.symbol], ["symbol", `${box.project}/app/[id]/page.tsx`, "Page"]);
  const hashed = parseTarget("notes#1.md", context);
  assert.equal([hashed.kind, hashed.path], ["path", `${box.project}/notes#1.md`]);
  const inHashed = parseTarget("notes#1.md#Intro", context);
  assert.equal([inHashed.kind, inHashed.path, inHashed.symbol], ["symbol", `${box.project}/notes#1.md`, "Intro"], "two # where the first names a file that exists");
  const escaped = parseTarget("notes\\#2.md#Intro", context);
  assert.equal([escaped.kind, escaped.path, escaped.symbol], ["symbol", `${box.project}/notes#2.md`, "Intro"], "an escaped # of a file not created yet");
  // A backslash of the name's own: the file that is there, not the one the escape would spell.
  mkdirSync(join(box.project, "b\\s"));
  writeFileSync(join(box.project, "b\\s", "a.ts"), "");
  assert.equal([parseTarget("b\\s/a.ts", context).kind, parseTarget("b\\s/a.ts", context).path], ["path", `${box.project}/b\\s/a.ts`]);
  assert.is(parseTarget("b\\q/a.ts", context).path, `${box.project}/bq/a.ts`, "no such file: the backslash escapes");
});

Literal("should read glob characters as a glob when nothing of that name exists, or with glob:", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  assert.is(parseTarget("app/[xy]", context).kind, "glob");
  const forced = parseTarget("glob:app/[id]", context);
  assert.equal([forced.kind, forced.canonical], ["glob", `${box.project}/app/[id]`]);
  assert.throws(() => parseTarget("glob:app/page.tsx", context), /no glob characters after glob:/);
});

Literal("should claim a directory or file not created yet when its glob characters are escaped", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  const directory = parseTarget("app/\\[slug\\]/", context);
  assert.equal([directory.kind, directory.path], ["directory", `${box.project}/app/[slug]/`]);
  const file = parseTarget("app/\\[slug\\]/page.tsx", context);
  assert.equal([file.kind, file.path], ["path", `${box.project}/app/[slug]/page.tsx`]);
  assert.throws(() => parseTarget("app/[slug]/", context), /glob ending in \/ and no such directory exists.*escape/);
});

Literal("should take a hook's or a staged file's path literally, whatever its characters", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  const target = parseTarget(join(box.project, "app/[new]/page.tsx"), context, true);
  assert.equal([target.kind, target.path], ["path", `${box.project}/app/[new]/page.tsx`]);
  assert.is(parseTarget(join(box.project, "a#b.ts"), context, true).kind, "path");
  assert.is(parseTarget(join(box.project, "tab\there.ts"), context, true).kind, "path");
});

Literal("should give back the same target from its canonical form", ({ box }) => {
  const context = { cwd: box.project, home: box.root };
  for (const spelling of ["app/[id]", "app/[id]/page.tsx", "app/[id]/page.tsx#Page", "notes#1.md", "app/\\[slug\\]/x.ts", "app/*.ts"]) {
    const canonical = parseTarget(spelling, context).canonical;
    assert.is(parseTarget(canonical, context).canonical, canonical, spelling);
  }
});
Literal.run();

const Globs = suite("what reads as a glob");

Globs("should read exactly what picomatch reads as a glob, without scanning plain text", () => {
  // isGlobText skips picomatch's scanner for text with no glob character; it must never answer
  // differently from the scanner. Random texts over every printable character, seeded.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), "é", "/", "/", "a", "."];
  const differ: string[] = [];
  let globs = 0;
  for (let i = 0; i < 50_000; i++) {
    let text = "";
    for (let n = 1 + Math.floor(next() * 12); n > 0; n--) text += alphabet[Math.floor(next() * alphabet.length)];
    const scanned = lazyPicomatch.scan(text).isGlob;
    if (scanned) globs += 1;
    if (isGlobText(text) !== scanned) differ.push(text);
  }
  assert.equal(differ, []);
  assert.ok(globs > 1000, "the texts include globs");
  for (const text of ["src/*.ts", "a/**", "f?.md", "src/{a,b}.ts", "[ab].ts", "@(x|y)", "!(x)"]) assert.ok(isGlobText(text), text);
  for (const text of ["src/app.ts", "/tmp/new/file.ts", "notes#1.md", "a b/c-d_e.f~"]) assert.not.ok(isGlobText(text), text);
  // Where picomatch's own scan stops too early (after a group with no alternatives, an escaped
  // brace, a [ never closed) and calls a text plain that its matcher reads as a glob: a glob.
  for (const [text, path] of [["app/{b}/*.ts", "app/{b}/x.ts"], ["{{name}}/**", "{{name}}/src/m.py"], ["app/\\{b\\}/*.ts", "app/{b}/x.ts"], ["[P*X", "[PzzX"], ["x{a*b}", "x{aZZb}"]]) {
    assert.not.ok(picomatch.scan(text).isGlob, `picomatch's scan still stops early on ${text}`);
    assert.ok(picomatch(text, { dot: true })(path), `${text} matches ${path}`);
    assert.ok(isGlobText(text), text);
  }
  const scanned = lazyPicomatch.scan("app/{b}/*.ts");
  assert.equal([scanned.base, scanned.glob], ["app/{b}", "*.ts"]);
  // What picomatch matches as the text itself stays plain: a group with no alternatives, a brace never closed.
  for (const text of ["a/{b}", "_{DQ?HV"]) assert.not.ok(isGlobText(text), text);
});

Globs.run();
