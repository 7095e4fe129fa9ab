// The Statements page in real Chromium against `npm start`: each format downloads from the page
// (BAI2 read by the specification's reader, camt valid XML of its message, CSV one file per
// account), the account page's button opens it with that account chosen, and axe finds nothing
// serious. An administrator makes an integration token on its page (shown once), an ERP fetches a
// statement with it, the token is revoked and refused; and a daily BAI2 subscription is made.
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

      // A prior-day file reports the previous business day (on a Monday, Friday), chosen at first.
      expect(await page.getByRole("radio", { name: "Previous business day" }).isChecked()).toBe(true);
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

  it("makes an integration token shown once, which reads a statement until revoked, and a daily subscription", {
    timeout: 300_000,
  }, async () => {
    const { context, page } = await world.session("admin");
    try {
      await page.goto(`${world.app.url}/admin/integration-tokens`);
      await page
        .getByRole("heading", { name: "Integration tokens", level: 1 })
        .waitFor({ timeout: FIRST_WAIT });
      await page.getByLabel("For", { exact: true }).fill("NetSuite");
      const first = page.getByRole("checkbox").first();
      await first.check();
      const label = await page.locator(`label[for="${await first.getAttribute("id")}"]`).innerText();
      const account = label.split("·").at(-1)?.trim() as string;
      expect(account).toMatch(/^\d+$/);
      await page.getByRole("button", { name: "Create token" }).click();
      const shown = page.getByTestId("new-token");
      await shown.waitFor({ timeout: FIRST_WAIT });
      const token = (await shown.innerText()).trim();
      expect(token).toMatch(/^itk_/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, "integration-tokens");

      const today = await world.demo.today();
      const fetchWith = () =>
        fetch(`${world.app.url}/api/statements/camt052?account=${account}&from=${today}&to=${today}`, {
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await fetchWith()).status).toBe(200);
      // Its use is listed once the page is read again; the value is not shown again.
      await page.reload();
      await page.getByRole("cell", { name: "NetSuite" }).first().waitFor({ timeout: FIRST_WAIT });
      expect(await page.getByTestId("new-token").count()).toBe(0);
      // Its last use is a time, not "Never".
      expect(await page.getByRole("cell", { name: "Never", exact: true }).count()).toBe(0);
      page.once("dialog", (d) => void d.accept());
      await page.getByRole("button", { name: /Revoke/ }).click();
      await page.getByText(/^Revoked /).waitFor({ timeout: FIRST_WAIT });
      expect((await fetchWith()).status).toBe(401);

      // A daily subscription on the Statements page.
      await page.goto(`${world.app.url}/statements`);
      await page.getByRole("heading", { name: "Daily BAI2 by e-mail" }).waitFor({ timeout: FIRST_WAIT });
      await page.getByLabel("Name", { exact: true }).fill("Daily close");
      const card = page.getByRole("region", { name: "Daily BAI2 by e-mail" });
      const scope = (await card.count()) ? card : page;
      await scope
        .getByRole("checkbox", { name: new RegExp(account) })
        .last()
        .check();
      await scope.getByRole("checkbox", { name: /@/ }).first().check();
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.getByText(/^Subscribed: /).waitFor({ timeout: FIRST_WAIT });
      await page
        .getByText(/Daily close/)
        .first()
        .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
