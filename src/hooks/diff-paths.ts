// The paths a unified diff names (diffPaths): read by the shell's `patch` and `git apply` rules
// (shell-rules.ts, shell-git-rules.ts) and by another MCP server's patch tool (mcp-tools.ts), which
// the hook loads for every such call without the shell reader.

/** Paths a unified diff writes: `+++ ` and `--- ` names (not /dev/null), `diff --git a/x b/y`, less `strip` leading components. */
export function diffPaths(text: string, strip: number): string[] {
  const paths = new Set<string>();
  const stripped = (path: string) => path.split("/").slice(strip).join("/");
  for (const line of text.split(/\r?\n/)) {
    let match = /^(?:\+\+\+|---) ("(?:\\.|[^"\\])*"|[^\t\n]+?)(?:\t.*)?$/.exec(line);
    if (match?.[1] && match[1] !== "/dev/null") {
      const path = stripped(unquoted(match[1].trim()));
      if (path) paths.add(path);
      continue;
    }
    // `diff --git a/x b/y`, each side C-quoted where its name needs it (`"a/caf\303\251.md"`), or with spaces.
    match = /^diff --git ("(?:\\.|[^"\\])*"|a\/.*?) ("(?:\\.|[^"\\])*"|b\/.*)$/.exec(line);
    if (match?.[1] && match[2]) {
      const partsStrip = Math.max(strip - 1, 0);
      for (const side of [match[1], match[2]]) paths.add(unquoted(side).replace(/^[ab]\//, "").split("/").slice(partsStrip).join("/"));
      continue;
    }
    // A rename or copy with no content change has no ---/+++ lines: its names are here, from the top.
    match = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (match?.[1]) paths.add(unquoted(match[1]));
  }
  return [...paths];
}

/** A name as git writes it in a diff: C-quoted (`"caf\303\251.md"`, `"a\"b"`, `"a\tb"`) where it must be, else as it is. */
function unquoted(name: string): string {
  if (!(name.length >= 2 && name.startsWith('"') && name.endsWith('"'))) return name;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  const body = name.slice(1, -1);
  for (let at = 0; at < body.length; at++) {
    const char = body[at] as string;
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(at + 1))?.[0];
    if (octal !== undefined) {
      bytes.push(Number.parseInt(octal, 8));
      at += 3;
    } else {
      const next = body[at + 1] ?? "";
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      at += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
