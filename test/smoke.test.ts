import { test } from "uvu";
import * as assert from "uvu/assert";
import { claims } from "./helpers.js";

test("should print the version", () => {
  const result = claims(["--version"]);
  assert.is(result.code, 0);
  assert.match(result.stdout, /\d+\.\d+\.\d+/);
});

test.run();
