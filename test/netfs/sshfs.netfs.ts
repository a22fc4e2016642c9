// The cross-machine suite on sshfs: SFTP to an sshd on 127.0.0.1, mounted twice with the options
// docs/RELIABILITY.md names (no directory cache).
import { netfsSuite } from "./scenarios.js";
import { startSshfs } from "./servers.js";

netfsSuite("sshfs", () => startSshfs());
