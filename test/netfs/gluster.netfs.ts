// The cross-machine suite on GlusterFS: a one-node volume on 127.0.0.1, mounted twice through FUSE,
// with the volume options docs/RELIABILITY.md names (server clock, no client metadata caches).
import { netfsSuite } from "./scenarios.js";
import { startGluster } from "./servers.js";

netfsSuite("GlusterFS", () => startGluster());
