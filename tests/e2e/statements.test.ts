// The Statements page in real Chromium against `npm start`: each format downloads from the page
// (BAI2 read by the specification's reader, camt valid XML of its message, CSV one file per
// account), the account page's button opens it with that account chosen, and axe finds nothing
// serious.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readBai2 } from "../helpers/bai2-reader.ts";
import { FIRST_WAIT, seriousAxeViolations, shot } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const world = browserWorld();

describe("the Statements page", () => {
  it("downloads BAI2, camt.053, camt.052 and CSV, and opens from an account page with that account", {
    timeout: 300_000,
  }, async () => {
    const { context, page } = await world.session("viewer");
    try {
      await page.goto(`${world.app.url}/statements`);
      await page.getByRole("heading", { name: "Statements", level: 1 }).waitFor({ timeout: FIRST_WAIT });
      const boxes = page.getByRole("checkbox");
      const accounts = await boxes.count();
      expect(accounts).toBeGreaterThan(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, "statements");

      const downloadAs = async (format: RegExp) => {
        await page.getByRole("radio", { name: format }).check();
        const [download] = await Promise.all([
          page.waitForEvent("download", { timeout: FIRST_WAIT }),
          page.getByRole("button", { name: "Download" }).click(),
        ]);
        return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), "utf8") };
      };

      await page.getByRole("radio", { name: "Last week" }).check();
      const bai2 = await downloadAs(/^BAI2/);
      expect(bai2.name).toMatch(/^bai2-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.bai$/);
      const file = readBai2(bai2.text);
      expect(file.groups.length).toBeGreaterThanOrEqual(5);
      expect(file.groups[0].accounts).toHaveLength(accounts);

      const camt053 = await downloadAs(/^camt\.053/);
      expect(camt053.text).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">');
      expect(camt053.text.trimEnd().endsWith("</BkToCstmrStmt></Document>")).toBe(true);

      const camt052 = await downloadAs(/^camt\.052/);
      expect(camt052.text).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08">');
      expect((camt052.text.match(/<Rpt>/g) ?? []).length).toBe(accounts);

      // CSV is one file per account: keep one account.
      for (let i = 1; i < accounts; i++) await boxes.nth(i).uncheck();
      const csv = await downloadAs(/^CSV/);
      expect(csv.name).toMatch(/\.csv$/);
      expect(csv.text.split("\n").length).toBeGreaterThan(1);
      await page.getByRole("status").filter({ hasText: "Downloaded." }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The account page's button opens the page with that account alone chosen.
      await page.goto(`${world.app.url}/accounts`);
      const link = page.locator('a[href^="/accounts/"]').first();
      const href = (await link.getAttribute("href")) as string;
      const accountNumber = href.split("/")[2];
      await page.goto(`${world.app.url}${href}`);
      // The account's own button, drawn once the account has loaded (the header has a Statements link too).
      await page
        .getByRole("main")
        .getByRole("link", { name: "Statements", exact: true })
        .click({ timeout: FIRST_WAIT });
      await page.waitForURL(/\/statements\?account=/);
      await page.getByRole("heading", { name: "Statements", level: 1 }).waitFor();
      const checked = page.getByRole("checkbox", { checked: true });
      expect(await checked.count()).toBe(1);
      expect(await checked.first().getAttribute("id")).not.toBeNull();
      expect(await page.getByRole("checkbox", { name: new RegExp(accountNumber) }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
