// A node's parent in a parsed command. tree-sitter finds one by descending from the root to the
// node, so asking it costs the node's depth, and a chain of `&&` nests its commands as deep as the
// chain is long: asked of each command, the square of the chain (20,000 `:&&` took the walk 10 s,
// past the hook's time). One walk of the tree the first time a parent is asked finds them all.
import type Parser from "web-tree-sitter";

type Node = Parser.SyntaxNode;

/** Each tree's nodes' parents, by node id (unique within a tree). */
const PARENTS = new WeakMap<Parser.Tree, Map<number, Node>>();

/** The node's parent, or null for the root. */
export function parentOf(node: Node): Node | null {
  // (A word the walk makes up, `{ type, text }`, belongs to no tree: it has no parent.)
  if (node.tree === undefined) return null;
  let parents = PARENTS.get(node.tree);
  if (parents === undefined) {
    parents = new Map();
    const cursor = node.tree.walk();
    const above: Node[] = []; // the current node's ancestors, nearest last
    try {
      for (;;) {
        const current = cursor.currentNode;
        const parent = above[above.length - 1];
        if (parent !== undefined) parents.set(current.id, parent);
        if (cursor.gotoFirstChild()) {
          above.push(current);
          continue;
        }
        let done = false;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) {
            done = true;
            break;
          }
          above.pop();
        }
        if (done) break;
      }
    } finally {
      cursor.delete();
    }
    PARENTS.set(node.tree, parents);
  }
  return parents.get(node.id) ?? null;
}

/**
 * Whether the command's input is redirected (`< f`, a heredoc, a here-string), by itself or by a
 * statement around it (`{ …; } < f`, `while …; done < f`, `( … ) < f`), whether or not the text
 * gives what it reads. The parser puts a redirection after a list or pipeline on the whole
 * (`a | crontab - < f`, `cd d && python3 manage.py shell < f`), where bash gives it to the last
 * command; a command after a pipe reads the pipe, whatever its statement redirects.
 */
export function inputRedirected(node: Node): boolean {
  const redirects = [...node.namedChildren];
  // Whether `node` is the last command of the lists and pipelines climbed since the last statement.
  let last = true;
  let piped = false;
  for (let at = node, up = parentOf(at); up !== null && up.type !== "function_definition"; at = up, up = parentOf(up)) {
    if (up.type === "list" || up.type === "pipeline") {
      if (up.lastNamedChild?.id !== at.id) last = false;
      if (up.type === "pipeline" && up.firstNamedChild?.id !== at.id) piped = true;
      continue;
    }
    // (Not from inside a redirection's own word: `cat < <(cmd)` runs cmd on the shell's input.)
    if (up.type === "redirected_statement" && up.childForFieldName("body")?.id === at.id && (at.type === "list" || at.type === "pipeline" ? last : !piped)) redirects.push(...up.namedChildren);
    if (piped) break;
    last = true;
  }
  return redirects.some((child) => child.type === "heredoc_redirect" || child.type === "herestring_redirect" || (child.type === "file_redirect" && child.children.some((part) => part.type === "<" || part.type === "<&" || part.type === "<>")));
}
