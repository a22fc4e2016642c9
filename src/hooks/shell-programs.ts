// What a program in another language, given inline (`python3 -c '…'`, `node -e '…'`, a heredoc to
// `python3 -`), may write: it is not read as code, but every string in it that reads as a file's
// path, and every word in such a string (`os.system("rm u.ts")`), is judged as written, and so is
// each path-like argument the program is given (`sys.argv`, `process.argv`, `@ARGV`). Reading a
// held file that way is refused too: the text cannot tell `open('a.ts')` from `open('a.ts', 'w')`
// at any depth a hook can afford, and refusing is safe. A program in a file (`python3 gen.py`) is
// not read (docs/HOOKS.md).

/** Quoted strings: '…', "…", `…` (escapes kept out of the way, not decoded). */
const STRING = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;

/** A word that names a file: no scheme, with a directory or an extension. */
const PATH_LIKE = /^(?![a-z][\w+.-]*:)[\w@.~+/-][\w@.~+,=/-]*$/i;

/** Whether a word reads as a file's path (`u.ts`, `src/a`, `/p/u.ts`), not a flag, a URL or a plain word. */
export function isPathLike(word: string): boolean {
  return word.length <= 1024 && !word.startsWith("-") && PATH_LIKE.test(word) && (word.includes("/") || /\.\w+$/.test(word)) && word !== "/";
}

export function pathsInProgram(program: string): string[] {
  const found = new Set<string>();
  for (const [, , text] of program.matchAll(STRING)) {
    // perl's open(F, ">out"); a shell command in a string (`system("rm u.ts")`): each word.
    for (const word of (text as string).split(/\s+/)) {
      const path = word.replace(/^(\+?[<>]{1,2}|\|)/, "");
      if (isPathLike(path)) found.add(path);
    }
  }
  return [...found];
}
