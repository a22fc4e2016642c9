// What a program in another language, given inline (`python3 -c '…'`, `node -e '…'`, a heredoc to
// `python3 -`), may write: it is not read as code, but every string in it that reads as a file's
// path is judged as written. Reading a held file that way is refused too: the text cannot tell
// `open('a.ts')` from `open('a.ts', 'w')` at any depth a hook can afford, and refusing is safe.
// A program in a file (`python3 gen.py`) is not read (docs/HOOKS.md).

/** Quoted strings: '…', "…", `…` (escapes kept out of the way, not decoded). */
const STRING = /(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;

/** A string that names a file: no spaces, no scheme, with a directory or an extension. */
const PATH_LIKE = /^(?![a-z][\w+.-]*:)[\w@.~+-][\w@.~+,=/-]*$/i;

export function pathsInProgram(program: string): string[] {
  const found = new Set<string>();
  for (const [, , text] of program.matchAll(STRING)) {
    const value = (text as string).replace(/^\s*(\+?[<>]{1,2}|\|)\s*/, ""); // perl's open(F, ">out")
    if (value.length > 1024 || !PATH_LIKE.test(value)) continue;
    if (value.includes("/") || /\.\w+$/.test(value)) found.add(value);
  }
  return [...found];
}
