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
 * command. A command after a pipe reads the pipe, whatever its statement redirects (the caller's
 * `piped` says so); a command in a group or loop after a pipe reads it too, and is answered so here.
 */
export function inputRedirected(node: Node): boolean {
  return node.namedChildren.some(readsInput) || redirectedAbove(node, true, false);
}

/** A redirection that gives a command its input. */
function readsInput(child: Node): boolean {
  return child.type === "heredoc_redirect" || child.type === "herestring_redirect" || (child.type === "file_redirect" && child.children.some((part) => part.type === "<" || part.type === "<&" || part.type === "<>"));
}

/** Each tree's answers of redirectedAbove, by node id and the two flags: asked of each command of a long `&&` chain, each climb would go the chain's length. */
const ABOVE = new WeakMap<Parser.Tree, Map<string, boolean>>();

/**
 * Whether a statement around `start` gives it its input. `last`: whether it is the last command of
 * the lists and pipelines climbed since a statement; `piped`: whether it comes after a pipe.
 */
function redirectedAbove(start: Node, last: boolean, piped: boolean): boolean {
  if (start.tree === undefined) return false;
  let known = ABOVE.get(start.tree);
  if (known === undefined) ABOVE.set(start.tree, (known = new Map()));
  const asked: string[] = [];
  let answer = false;
  for (let at = start; ; ) {
    const key = `${at.id} ${last} ${piped}`;
    const found = known.get(key);
    if (found !== undefined) {
      answer = found;
      break;
    }
    asked.push(key);
    const up = parentOf(at);
    if (up === null || up.type === "function_definition") break;
    if (up.type === "list" || up.type === "pipeline") {
      if (up.lastNamedChild?.id !== at.id) last = false;
      if (up.type === "pipeline" && up.firstNamedChild?.id !== at.id) {
        // A group, subshell or loop after a pipe (`cat x.py | (python3 manage.py shell)`): its commands read the pipe.
        if (at.type !== "command") {
          answer = true;
          break;
        }
        piped = true;
      }
      at = up;
      continue;
    }
    // (Not from inside a redirection's own word: `cat < <(cmd)` runs cmd on the shell's input.)
    if (up.type === "redirected_statement" && up.childForFieldName("body")?.id === at.id && (at.type === "list" || at.type === "pipeline" ? last : !piped) && up.namedChildren.some(readsInput)) {
      answer = true;
      break;
    }
    if (piped) break;
    last = true;
    at = up;
  }
  for (const key of asked) known.set(key, answer);
  return answer;
}
