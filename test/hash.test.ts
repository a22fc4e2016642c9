import { createHash } from "node:crypto";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { randomHex, sha256Hex } from "../src/os/hash.js";

// Claim names, lock names and versions are SHA-256 digests that other implementations (the shell
// take of docs/PROTOCOL.md, sha256sum) must reproduce, so the built-in hash must match the
// standard one bit for bit.
const Hash = suite("sha256Hex");

const nodeSha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

Hash("should match the FIPS 180-4 examples", () => {
  assert.is(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.is(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.is(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Hash("should match node:crypto at every length around the block and padding boundaries", () => {
  for (let length = 0; length <= 300; length++) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 131 + length * 7) & 0xff);
    assert.is(sha256Hex(bytes), nodeSha(bytes), `length ${length}`);
  }
});

Hash("should hash a string as its UTF-8 bytes", () => {
  for (const text of ["/home/ana/project/src/a.ts", "ünïcödé/ファイル.ts", "emoji 🦀 and\nnewline", "x".repeat(1000)]) {
    assert.is(sha256Hex(text), nodeSha(text));
  }
});

Hash("should match node:crypto on random input of a megabyte", () => {
  const bytes = new Uint8Array(1 << 20).map(() => Math.floor(Math.random() * 256));
  assert.is(sha256Hex(bytes), nodeSha(bytes));
});

Hash("should hash bytes changed in place anew, not answer from an earlier call", () => {
  // Calls remember recent inputs; a caller reusing one buffer must still get its new bytes' hash.
  const bytes = new Uint8Array(200).fill(7);
  const text = "x".repeat(200);
  for (let round = 0; round < 20; round++) {
    bytes[round % 200] = round;
    assert.is(sha256Hex(bytes), nodeSha(bytes), `round ${round}`);
    assert.is(sha256Hex(text), nodeSha(text));
    assert.is(sha256Hex(`${text}${round}`), nodeSha(`${text}${round}`));
  }
});

const Random = suite("randomHex");

Random("should give the number of hex digits asked for", () => {
  for (const digits of [1, 6, 8, 9, 12, 16]) assert.match(randomHex(digits), new RegExp(`^[0-9a-f]{${digits}}$`));
});

Random("should not repeat a temp-name-sized suffix", () => {
  // 10,000 draws of 48 bits: a repeat has a chance of about 1 in 5 million.
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) seen.add(randomHex(12));
  assert.is(seen.size, 10_000);
});

Hash.run();
Random.run();
