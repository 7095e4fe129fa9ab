// A BAI2 reader written from the Cash Management Balance Reporting Specifications (version 2),
// independent of the dashboard's writer: it joins 88 continuations, splits fields, checks the
// record order, the "/" terminators and every control total and record count, and throws on any
// breach so a test reading a file proves the file follows the format.

export interface Bai2Summary {
  code: string;
  amount: bigint;
  itemCount: string;
  fundsType: string;
}

export interface Bai2Detail {
  typeCode: string;
  amount: bigint;
  fundsType: string;
  bankRef: string;
  customerRef: string;
  text: string;
}

export interface Bai2Account {
  accountNumber: string;
  currency: string;
  summaries: Bai2Summary[];
  details: Bai2Detail[];
  controlTotal: bigint;
  records: number;
}

export interface Bai2Group {
  receiver: string;
  originator: string;
  status: string;
  asOfDate: string;
  asOfTime: string;
  currency: string;
  asOfModifier: string;
  accounts: Bai2Account[];
}

export interface Bai2File {
  sender: string;
  receiver: string;
  creationDate: string;
  creationTime: string;
  fileId: string;
  version: string;
  groups: Bai2Group[];
  physicalRecords: number;
}

/** Status type codes (001-099) carry no item count; summary codes (100-999) may. */
const isStatus = (code: string) => Number(code) < 100;

function bai2Amount(s: string, where: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`${where}: amount "${s}" is not a signed whole number of cents`);
  return BigInt(s);
}

interface Logical {
  code: string;
  /** The fields after the record code, continuations appended. */
  fields: string[];
  /** Physical lines the record spans. */
  lines: number;
  /** A 16 record's free text (the remainder of the record). */
  text?: string;
}

/** Splits a physical line's data: the "/" terminator, where present, ends the record's data. */
function body(line: string, where: string, mayOmitSlash: boolean): string {
  if (line.endsWith("/")) return line.slice(0, -1);
  if (!mayOmitSlash) throw new Error(`${where}: record does not end with "/": ${line}`);
  return line;
}

function readLogical(text: string): { records: Logical[]; physical: number } {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const records: Logical[] = [];
  lines.forEach((line, i) => {
    const where = `line ${i + 1}`;
    const code = line.slice(0, 2);
    if (line[2] !== ",") throw new Error(`${where}: no record code: ${line}`);
    if (code === "88") {
      const prev = records.at(-1);
      if (!prev) throw new Error(`${where}: continuation before any record`);
      if (prev.text !== undefined) {
        // A 16 record's text continues: the 88 carries more of it (no "/" needed).
        const more = line.slice(3);
        prev.text = prev.text ? `${prev.text} ${more}` : more;
      } else {
        prev.fields.push(...body(line, where, false).slice(3).split(","));
      }
      prev.lines++;
      return;
    }
    if (code === "16") {
      // 16,type,amount,funds type[,availability...],bank ref,customer ref,text
      const raw = line.slice(3);
      const parts = raw.split(",");
      const funds = parts[2] ?? "";
      const extra = funds === "S" ? 3 : funds === "V" ? 2 : funds === "D" ? 1 + 2 * Number(parts[3] ?? 0) : 0;
      const fixed = 3 + extra + 2;
      if (parts.length < fixed + 1) {
        // No text field at all: the record ends with "/" after the customer reference.
        const b = body(line, where, false).slice(3).split(",");
        records.push({ code, fields: b, lines: 1, text: "" });
        return;
      }
      const head = parts.slice(0, fixed);
      let rest = parts.slice(fixed).join(",");
      // An empty text ends with "/"; a text may end without one.
      if (rest === "/") rest = "";
      records.push({ code, fields: head, lines: 1, text: rest });
      return;
    }
    records.push({ code, fields: body(line, where, false).slice(3).split(","), lines: 1 });
  });
  return { records, physical: lines.length };
}

export function readBai2(text: string): Bai2File {
  const { records, physical } = readLogical(text);
  let i = 0;
  const next = (want: string): Logical => {
    const r = records[i];
    if (!r || r.code !== want)
      throw new Error(`record ${i + 1}: expected ${want}, found ${r?.code ?? "end of file"}`);
    i++;
    return r;
  };
  const h = next("01");
  const [sender, receiver, creationDate, creationTime, fileId, , , version] = h.fields;
  if (version !== "2") throw new Error(`01: version ${version}, not 2`);
  if (!/^\d{6}$/.test(creationDate)) throw new Error("01: creation date is not YYMMDD");
  const groups: Bai2Group[] = [];
  let fileTotal = 0n;
  let fileRecords = h.lines;
  while (records[i]?.code === "02") {
    const g = next("02");
    const [gReceiver, originator, status, asOfDate, asOfTime, currency, asOfModifier] = g.fields;
    const group: Bai2Group = {
      receiver: gReceiver,
      originator,
      status,
      asOfDate,
      asOfTime,
      currency,
      asOfModifier,
      accounts: [],
    };
    let groupTotal = 0n;
    let groupRecords = g.lines;
    while (records[i]?.code === "03") {
      const a = next("03");
      const [accountNumber, acctCurrency, ...items] = a.fields;
      if (items.length % 4 !== 0) throw new Error(`03 ${accountNumber}: summary items are not in fours`);
      const summaries: Bai2Summary[] = [];
      let total = 0n;
      for (let k = 0; k < items.length; k += 4) {
        const [code, amount, itemCount, fundsType] = items.slice(k, k + 4);
        if (isStatus(code) && itemCount !== "")
          throw new Error(`03 ${accountNumber}: status ${code} has an item count`);
        const amt = bai2Amount(amount, `03 ${accountNumber} ${code}`);
        summaries.push({ code, amount: amt, itemCount, fundsType });
        total += amt;
      }
      let accountRecords = a.lines;
      const details: Bai2Detail[] = [];
      while (recordsAt(i) === "16") {
        const d = next("16");
        const [typeCode, amount, fundsType] = d.fields;
        const n = d.fields.length;
        const amt = bai2Amount(amount, `16 ${accountNumber}`);
        if (amt < 0n) throw new Error(`16 ${accountNumber}: a detail amount is never signed negative`);
        details.push({
          typeCode,
          amount: amt,
          fundsType,
          bankRef: d.fields[n - 2],
          customerRef: d.fields[n - 1],
          text: d.text ?? "",
        });
        total += amt;
        accountRecords += d.lines;
      }
      const t = next("49");
      accountRecords += t.lines;
      const [controlTotal, count] = t.fields;
      if (bai2Amount(controlTotal, "49") !== total)
        throw new Error(`49 ${accountNumber}: control total ${controlTotal}, the amounts sum to ${total}`);
      if (Number(count) !== accountRecords)
        throw new Error(`49 ${accountNumber}: ${count} records stated, ${accountRecords} found`);
      group.accounts.push({
        accountNumber,
        currency: acctCurrency,
        summaries,
        details,
        controlTotal: total,
        records: accountRecords,
      });
      groupTotal += total;
      groupRecords += accountRecords;
    }
    const gt = next("98");
    groupRecords += gt.lines;
    const [gControl, gAccounts, gCount] = gt.fields;
    if (bai2Amount(gControl, "98") !== groupTotal)
      throw new Error(`98: control total ${gControl}, accounts sum to ${groupTotal}`);
    if (Number(gAccounts) !== group.accounts.length) throw new Error(`98: ${gAccounts} accounts stated`);
    if (Number(gCount) !== groupRecords)
      throw new Error(`98: ${gCount} records stated, ${groupRecords} found`);
    groups.push(group);
    fileTotal += groupTotal;
    fileRecords += groupRecords;
  }
  const ft = next("99");
  fileRecords += ft.lines;
  const [fControl, fGroups, fCount] = ft.fields;
  if (bai2Amount(fControl, "99") !== fileTotal)
    throw new Error(`99: control total ${fControl}, groups sum to ${fileTotal}`);
  if (Number(fGroups) !== groups.length)
    throw new Error(`99: ${fGroups} groups stated, ${groups.length} found`);
  if (Number(fCount) !== fileRecords || fileRecords !== physical)
    throw new Error(`99: ${fCount} records stated, ${fileRecords} found (${physical} lines)`);
  if (i !== records.length) throw new Error("records after the file trailer");
  return { sender, receiver, creationDate, creationTime, fileId, version, groups, physicalRecords: physical };

  function recordsAt(k: number): string | undefined {
    return records[k]?.code;
  }
}
