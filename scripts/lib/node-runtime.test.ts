import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installArchive, matchesIntegrity, parseNodeVersion, platformKey, provisionNode, RuntimeProvisionError, runtimeDecision } from "./node-runtime.mjs";

describe("runtimeDecision", () => {
  it.each([
    ["v20.20.2", false, "older major"],
    ["v22.17.9", false, "older minor"],
    ["v22.18.0", true, "exactly the minimum"],
    ["v22.18.1", true, "newer patch"],
    ["v24.21.0", true, "the LTS"],
    ["v26.10.0", true, "newer major"],
    ["v25.0.0-nightly20260101", false, "a nightly is not a release"],
    ["", false, "empty"],
    ["twenty-four", false, "unparseable"],
  ])("%s -> use the machine's: %s (%s)", (version, useMachine) => {
    expect(runtimeDecision(version).useMachine).toBe(useMachine);
  });

  it("says why it provisions", () => {
    expect(runtimeDecision("v20.20.2").reason).toBe("v20.20.2 is older than 22.18.0");
    expect(runtimeDecision("v0.x").reason).toBe("its version 'v0.x' is not a release version");
  });

  it("parses only plain release versions", () => {
    expect(parseNodeVersion("v24.21.0")).toEqual([24, 21, 0]);
    expect(parseNodeVersion("24.21.0")).toEqual([24, 21, 0]);
    expect(parseNodeVersion("v24.21")).toBeNull();
  });
});

describe("platformKey", () => {
  it("knows the platforms with a pinned build and nothing else", () => {
    expect(platformKey("linux", "x64")).toBe("linux-x64");
    expect(platformKey("darwin", "arm64")).toBe("darwin-arm64");
    expect(platformKey("win32", "x64")).toBeNull();
    expect(platformKey("linux", "ppc64")).toBeNull();
  });

  it("refuses an unsupported platform with one sentence naming the version to install", async () => {
    const attempt = provisionNode({ toolsDir: "/nonexistent", platform: "sunos", arch: "x64", env: {}, log: () => undefined });
    await expect(attempt).rejects.toBeInstanceOf(RuntimeProvisionError);
    await expect(attempt).rejects.toThrow(/no Node build for it can be installed automatically: install Node\.js 24 LTS/);
  });
});

describe("installArchive", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A tarball shaped like the registry's node-<os>-<cpu> packages, with a shell script as `node`. */
  function fakeNodeArchive(): Buffer {
    const dir = mkdtempSync(path.join(tmpdir(), "node-archive-"));
    dirs.push(dir);
    mkdirSync(path.join(dir, "package/bin"), { recursive: true });
    writeFileSync(path.join(dir, "package/bin/node"), "#!/bin/sh\necho v24.21.0\n");
    chmodSync(path.join(dir, "package/bin/node"), 0o755);
    execFileSync("tar", ["-czf", path.join(dir, "node.tgz"), "-C", dir, "package"]);
    return readFileSync(path.join(dir, "node.tgz"));
  }

  const integrityOf = (bytes: Buffer) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

  function toolsDir(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "tools-"));
    dirs.push(dir);
    return dir;
  }

  it("installs an archive that matches the registry's sha512", () => {
    const archive = fakeNodeArchive();
    const tools = toolsDir();
    installArchive(archive, integrityOf(archive), path.join(tools, "node-24.21.0"));
    expect(execFileSync(path.join(tools, "node-24.21.0/bin/node"), { encoding: "utf8" }).trim()).toBe("v24.21.0");
  });

  it("refuses a corrupted archive and leaves nothing behind", () => {
    const archive = fakeNodeArchive();
    const integrity = integrityOf(archive);
    const corrupted = Buffer.from(archive);
    corrupted[corrupted.length - 10]! ^= 0xff;
    const tools = toolsDir();
    expect(() => installArchive(corrupted, integrity, path.join(tools, "node-24.21.0"))).toThrow(/does not match the registry's integrity checksum/);
    expect(existsSync(path.join(tools, "node-24.21.0"))).toBe(false);
    expect(readdirSync(tools)).toEqual([]);
  });

  it("accepts only sha512 integrity strings", () => {
    const bytes = Buffer.from("node");
    const sha1 = `sha1-${createHash("sha1").update(bytes).digest("base64")}`;
    expect(matchesIntegrity(bytes, sha1)).toBe(false);
    expect(matchesIntegrity(bytes, `${sha1} ${integrityOf(bytes)}`)).toBe(true);
    expect(matchesIntegrity(bytes, "")).toBe(false);
  });
});
