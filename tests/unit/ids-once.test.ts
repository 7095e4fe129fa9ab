// The dashboard's id pattern lives once (lib/dashboard-api/ids.ts): a second hand-written UUID
// pattern, a looser `[0-9a-f-]{36}` (thirty-six dashes passed it and reached the database as a
// 500), or zod's own uuid check beside it fails this test.
import { describe, expect, it } from "vitest";
import { isId } from "../../lib/dashboard-api/ids.ts";
import { copiesOutside } from "../helpers/copies.ts";

const HOME = "lib/dashboard-api/ids.ts";

const COPIES = [/0-9a-f\]\{8\}-/i, /\[0-9a-f-\]\{36\}/i, /\bz\.uuid\(/, /\.uuid\(\)/];

describe("the id pattern, once", () => {
  it("has no second copy in the dashboard's code", () => {
    const found = copiesOutside([HOME], COPIES, ["lib", "components", "app", "hooks"]);
    expect(found).toEqual([]);
  });

  it("takes a UUID in its 8-4-4-4-12 form and nothing else", () => {
    expect(isId("0b8f5a8e-3c1d-4e2f-9a7b-1c2d3e4f5a6b")).toBe(true);
    expect(isId("0B8F5A8E-3C1D-4E2F-9A7B-1C2D3E4F5A6B")).toBe(true);
    for (const bad of [
      "-".repeat(36),
      "0b8f5a8e3c1d4e2f9a7b1c2d3e4f5a6b",
      "0b8f5a8e-3c1d-4e2f-9a7b-1c2d3e4f5a6",
      "",
      null,
      42,
    ])
      expect(isId(bad)).toBe(false);
  });
});
