// The record reader of the bank client: an answer cut into chunks anywhere gives the same records and
// head as parsing it whole, and a record off the contract is named by its path in the answer.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RecordStream } from "../../lib/bank-client/record-stream.ts";

const Record = z.object({ a: z.number(), s: z.string(), n: z.object({ x: z.array(z.number()) }).nullable() });

function read(text: string, cuts: number[]) {
  const s = new RecordStream({ key: "TRANSACTION", schema: Record }, (r, k) => ({ k, r }));
  let at = 0;
  for (const c of [...new Set(cuts)].sort((x, y) => x - y)) {
    s.push(text.slice(at, c));
    at = c;
  }
  s.push(text.slice(at));
  return { head: s.end(), records: s.out, failure: s.failure };
}

// Strings holding every character the reader must not take for structure.
const tricky = fc.string({
  unit: fc.constantFrom('"', "\\", "{", "}", "[", "]", ",", ":", "a", "é", " ", "\n"),
});
const record = fc.record({
  a: fc.integer(),
  s: tricky,
  n: fc.option(fc.record({ x: fc.array(fc.integer(), { maxLength: 3 }) }), { nil: null }),
});

describe("RecordStream", () => {
  it("reads the same records and head whatever the chunks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(record, { maxLength: 5 }), { minLength: 0, maxLength: 3 }),
        tricky,
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (pages, more, spaced, cutSeeds) => {
          const answer = {
            SEQUENCE: 1,
            // A key of the head that looks like the records' key, in another place.
            ResponseData: pages.map((p) => ({ TRANSACTION: p, RECS_RETURNED: p.length, MOREDATA: more })),
            ERROR: [{ TRANSACTION: [{ a: "not a record" }] }],
          };
          const text = spaced ? JSON.stringify(answer, null, 2) : JSON.stringify(answer);
          const cuts = cutSeeds.map((c) => c % (text.length + 1));
          const got = read(text, cuts);
          expect(got.failure).toBeNull();
          expect(got.records.map((r) => r.r)).toEqual(pages.flat());
          expect(got.records.map((r) => r.k)).toEqual(pages.flat().map((_, k) => k));
          expect(got.head).toEqual({
            ...answer,
            ResponseData: answer.ResponseData.map((p) => ({ ...p, TRANSACTION: [] })),
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads an answer cut after every character", () => {
    const text = JSON.stringify({
      SEQUENCE: 1,
      ResponseData: [
        {
          RECS_RETURNED: 2,
          MOREDATA: "N",
          TRANSACTION: [
            { a: 1, s: 'q"\\}{', n: null },
            { a: 2, s: "\\", n: { x: [1] } },
          ],
        },
      ],
      ERROR: [],
    });
    const cuts = Array.from({ length: text.length }, (_, i) => i);
    const got = read(text, cuts);
    expect(got.failure).toBeNull();
    expect(got.records.map((r) => r.r.s)).toEqual(['q"\\}{', "\\"]);
  });

  it("names a record off the contract by its path, and hands on none after it", () => {
    const text = JSON.stringify({
      SEQUENCE: 1,
      ResponseData: [
        { RECS_RETURNED: 0, MOREDATA: "N", TRANSACTION: [] },
        {
          RECS_RETURNED: 2,
          MOREDATA: "N",
          TRANSACTION: [
            { a: 1, s: "", n: null },
            { a: "1", s: "", n: null },
            { a: 3, s: "", n: null },
          ],
        },
      ],
      ERROR: [],
    });
    const got = read(text, [17, 90]);
    expect(got.records).toHaveLength(1);
    expect(got.failure?.kind).toBe("mismatch");
    expect(got.failure?.issues[0].path).toEqual(["ResponseData", 1, "TRANSACTION", 1, "a"]);
  });

  it("refuses a record that is not an object, and an answer cut short", () => {
    const notObject = read('{"SEQUENCE":1,"ResponseData":[{"TRANSACTION":[1]}],"ERROR":[]}', []);
    expect(notObject.failure?.issues[0].path).toEqual(["ResponseData", 0, "TRANSACTION", 0]);
    const cut = read('{"SEQUENCE":1,"ResponseData":[{"TRANSACTION":[{"a":1,"s":"","n":null}', []);
    expect(cut.head).toBeUndefined();
    expect(cut.failure?.kind).toBe("malformed");
  });
});
