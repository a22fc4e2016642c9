import { suite } from "uvu";
import * as assert from "uvu/assert";
import { globsMayIntersect, overlaps, shapeOf } from "../src/overlap.js";

const conflict = (a: string, b: string) => overlaps(shapeOf(a), shapeOf(b)) && overlaps(shapeOf(b), shapeOf(a));
const disjoint = (a: string, b: string) => !overlaps(shapeOf(a), shapeOf(b)) && !overlaps(shapeOf(b), shapeOf(a));

const Kinds = suite("kinds from canonical strings");
Kinds("should tell every kind from its canonical string alone", () => {
  assert.is(shapeOf("shared-config").kind, "name");
  assert.is(shapeOf("/p/src/a.ts").kind, "path");
  assert.is(shapeOf("/p/src/").kind, "directory");
  assert.is(shapeOf("/p/src/**/*.ts").kind, "glob");
  assert.is(shapeOf("/p/utils.js#formatPrice").kind, "symbol");
  assert.is(shapeOf("/p/@types/node/index.d.ts").kind, "path");
});
Kinds.run();

const Pairs = suite("overlap rules");
const table: Array<[string, string, boolean]> = [
  // names
  ["shared-config", "shared-config", true],
  ["shared-config", "other", false],
  ["shared-config", "/p/shared-config", false],
  // directory vs file and directory, both directions
  ["/p/src/", "/p/src/a.ts", true],
  ["/p/src/", "/p/src/deep/er/a.ts", true],
  ["/p/src/", "/p/srcx/a.ts", false],
  ["/p/src/", "/p/src", true],
  ["/p/build", "/p/build/out.js", true],
  ["/p/build", "/p/build/gen/", true],
  ["/p/src/a.ts", "/p/src/a.tsx", false],
  ["/p/src/", "/p/src/components/{Button,Card}.tsx", true],
  ["/p/src/", "/p/sr*", true],
  ["/p/src/", "/p/src/sub/", true],
  ["/p/src/", "/p/srcx/", false],
  ["/", "/p/anything", true],
  // glob vs file
  ["/p/src/**/*.ts", "/p/src/a.ts", true],
  ["/p/src/**/*.ts", "/p/src/deep/a.ts", true],
  ["/p/src/**/*.ts", "/p/src/a.py", false],
  ["/p/src/*.ts", "/p/src/deep/a.ts", false],
  ["/p/src/*", "/p/src/.env", true],
  // glob vs directory
  ["/p/src/**/*.ts", "/p/src/deep/", true],
  ["/p/src/**/*.ts", "/p/", true],
  ["/p/src/*.ts", "/p/src/deep/", false],
  ["/p/src/**", "/p/lib/", false],
  ["/p/*/gen/*.ts", "/p/api/gen/", true],
  ["/p/*/gen/*.ts", "/p/api/other/", false],
  // glob vs glob
  ["/p/src/**/*.ts", "/p/src/**/*.py", false],
  ["/p/src/**/*.ts", "/p/src/api/*.ts", true],
  ["/p/src/*.ts", "/p/src/a*", true],
  ["/p/src/*.ts", "/p/lib/*.ts", false],
  ["/p/**/test/*.ts", "/p/src/**", true],
  ["/p/src/{a,b}/*.ts", "/p/src/c/*.ts", true],
  ["/p/src/{a,b}/*.ts", "/p/lib/*.ts", false],
  // symbols
  ["/p/u.js#formatPrice", "/p/u.js#formatDate", false],
  ["/p/u.js#formatPrice", "/p/u.js#formatPrice", true],
  ["/p/u.js#formatPrice", "/p/u.js", true],
  ["/p/u.js#formatPrice", "/p/", true],
  ["/p/u.js#formatPrice", "/p/*.js", true],
  ["/p/u.js#formatPrice", "/p/v.js", false],
];
for (const [a, b, expected] of table) {
  Pairs(`should ${expected ? "" : "not "}find ${a} and ${b} overlapping, in both directions`, () => {
    assert.ok(expected ? conflict(a, b) : disjoint(a, b));
  });
}
Pairs("should decide two globs without any file on disk", () => {
  assert.ok(globsMayIntersect("/nowhere/**/*.ts", "/nowhere/new/dir/*.ts"));
  assert.not.ok(globsMayIntersect("/nowhere/**/*.ts", "/nowhere/**/*.tsx"));
});
Pairs.run();
