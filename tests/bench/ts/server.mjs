// The TypeScript peer of tests/bench/bench_server.cpp, on the official SDK: the same `add`,
// `search_notes` and payload tools (same schemas, same work, same result shape), the same flags:
//   node server.mjs [--store PATH] [--http HOST:PORT [--stateless]]
// HTTP follows the SDK's own patterns: one McpServer + transport per session (session mode), or
// per request (stateless), both answering JSON rather than SSE so replies compare like with like.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function parseArgs(argv) {
  const opts = { store: null, http: null, stateless: false };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === "--store" && i + 1 < argv.length) opts.store = argv[++i];
    else if (argv[i] === "--http" && i + 1 < argv.length) opts.http = argv[++i];
    else if (argv[i] === "--stateless") opts.stateless = true;
    else {
      process.stderr.write(`server.mjs: unknown argument '${argv[i]}'\n`);
      process.exit(2);
    }
  }
  return opts;
}

// Notes sorted by title, as the C++ store (a std::map) holds them.
function loadNotes(path) {
  if (!path) return [];
  const doc = JSON.parse(readFileSync(path, "utf8"));
  return doc.notes
    .map((n) => ({
      title: n.title,
      body: n.body,
      visibility: n.visibility ?? "team",
      last_modified: n.last_modified ?? "",
      // Lower-cased once at load, as the C++ notes store keeps its folded copy.
      folded: (n.title + "\n" + n.body).toLowerCase(),
    }))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

function fnv1aHex(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h.toString(16);
}
const makeCursor = (offset, tag) => Buffer.from(`c1:${offset}:${fnv1aHex(tag)}`).toString("base64url");
function readCursor(cursor, tag) {
  const m = /^c1:(\d+):([0-9a-f]+)$/.exec(Buffer.from(cursor, "base64url").toString());
  return m && m[2] === fnv1aHex(tag) ? Number(m[1]) : null;
}

function truncateText(text, budget, howToContinue) {
  if (text.length <= budget) return text;
  const kept = text.slice(0, budget);
  return `${kept}\n[truncated: showed ${[...kept].length} of ${[...text].length} characters; ${howToContinue}]`;
}

const jsonResult = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });

// The payload-size tools: order(customer, items[N]) -> summary, order_rt (ours registers it with a
// run-time JSON Schema; this SDK takes zod only, so here it is the same zod tool), list(n) -> records.
// The schemas are built once here, not per McpServer: the HTTP modes make a server per session or
// per request, and the older rows must not pay for these tools.
const orderInput = z.object({
  customer: z.string().describe("Who orders"),
  items: z
    .array(
      z.object({
        sku: z.string().regex(/^[A-Z]{3}-[0-9]{4}$/).describe("Stock keeping unit, e.g. ABC-1234"),
        qty: z.number().int().min(1).max(1000).describe("How many"),
        priority: z.enum(["low", "normal", "high"]).describe("Handling priority"),
        tags: z.array(z.string()).max(8).describe("Free-form labels"),
      }),
    )
    .describe("The order lines"),
});
const orderOutput = z.object({
  customer: z.string().describe("Who ordered"),
  item_count: z.number().int().describe("Order lines"),
  total_quantity: z.number().int().describe("Sum of the lines' quantities"),
  high_priority: z.number().int().describe("Lines of high priority"),
});
const summarize = async ({ customer, items }) => {
  let total = 0;
  let high = 0;
  for (const item of items) {
    total += item.qty;
    if (item.priority === "high") ++high;
  }
  return jsonResult({ customer, item_count: items.length, total_quantity: total, high_priority: high });
};
const listInput = z.object({ n: z.number().int().min(0).max(100000).describe("How many records") });
const listOutput = z.object({
  records: z
    .array(
      z.object({
        id: z.number().int().describe("Record id"),
        name: z.string().describe("Full name"),
        email: z.string().describe("Email address"),
        score: z.number().describe("Score"),
        active: z.boolean().describe("Whether the account is active"),
      }),
    )
    .describe("The records, by id"),
});

function makeServer(notes) {
  const server = new McpServer({ name: "mcp-bench-ts", version: "1.0.0" });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: { a: z.number().describe("First addend"), b: z.number().describe("Second addend") },
      outputSchema: { sum: z.number().describe("a + b") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ a, b }) => jsonResult({ sum: a + b }),
  );
  const hints = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    "order",
    { description: "Places an order; returns its summary.", inputSchema: orderInput, outputSchema: orderOutput, annotations: hints },
    summarize,
  );
  server.registerTool(
    "order_rt",
    {
      description: "Places an order; returns its summary (schemas given at run time).",
      inputSchema: orderInput,
      outputSchema: orderOutput,
      annotations: hints,
    },
    summarize,
  );
  server.registerTool(
    "list",
    {
      description: "Lists n generated records.",
      inputSchema: listInput,
      outputSchema: listOutput,
      annotations: hints,
    },
    async ({ n }) => {
      const records = new Array(n);
      for (let i = 0; i < n; ++i)
        records[i] = { id: i, name: `User ${i}`, email: `user${i}@example.com`, score: (i % 1000) / 4, active: i % 2 === 0 };
      return jsonResult({ records });
    },
  );
  server.registerTool(
    "search_notes",
    {
      description:
        "Find notes by keywords in their titles and bodies. Returns one page of matches with short excerpts and " +
        "a next_cursor for more. Use read_note for a whole note, note_stats for its word count and headings.",
      inputSchema: {
        query: z.string().min(1).describe("Words to look for in titles and bodies (case-insensitive; every word must appear)"),
        limit: z.number().int().min(1).max(50).default(5).describe("Notes per page"),
        cursor: z.string().optional().describe("next_cursor from the previous page of the same query"),
      },
      outputSchema: {
        notes: z
          .array(
            z.object({
              title: z.string().describe("Note title"),
              visibility: z.string().describe("private or team"),
              excerpt: z.string().describe("The body, cut with a marker when long"),
              last_modified: z.string().describe("ISO-8601 UTC time of the last change"),
            }),
          )
          .describe("This page of matching notes, best match first"),
        total_matches: z.number().int().describe("Matching notes across all pages"),
        next_cursor: z.string().optional().describe("Pass as cursor to get the next page; absent on the last page"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit, cursor }) => {
      const lowered = query.toLowerCase();
      const terms = lowered.split(/\s+/).filter(Boolean);
      const matches = [];
      for (const n of notes) {
        if (terms.every((t) => n.folded.includes(t))) matches.push(n);
      }
      let begin = 0;
      if (cursor !== undefined) {
        const offset = readCursor(cursor, lowered);
        if (offset === null)
          return {
            isError: true,
            content: [{ type: "text", text: "The cursor does not belong to this query. Call search_notes again with the same query and no cursor to start over." }],
          };
        begin = Math.min(offset, matches.length);
      }
      const end = begin + Math.min(limit, matches.length - begin);
      const out = {
        notes: matches.slice(begin, end).map((n) => ({
          title: n.title,
          visibility: n.visibility,
          excerpt: truncateText(n.body, 300, "call read_note with this title for the full text"),
          last_modified: n.last_modified,
        })),
        total_matches: matches.length,
      };
      if (end < matches.length) out.next_cursor = makeCursor(end, lowered);
      return jsonResult(out);
    },
  );
  return server;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function jsonError(res, status, message) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function serveHttp(notes, address, stateless) {
  const m = /^(.*):(\d+)$/.exec(address);
  if (!m) {
    process.stderr.write(`server.mjs: --http wants HOST:PORT, got '${address}'\n`);
    process.exit(2);
  }
  const transports = new Map(); // session id -> transport
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (!req.url.startsWith("/mcp")) return jsonError(res, 404, "Not found");
      let body;
      if (req.method === "POST") {
        try {
          body = JSON.parse(await readBody(req));
        } catch {
          return jsonError(res, 400, "Parse error");
        }
      }
      if (stateless) {
        const server = makeServer(notes);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on("close", () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      const sid = req.headers["mcp-session-id"];
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (sid) return jsonError(res, 404, "Session not found");
        if (req.method !== "POST" || !isInitializeRequest(body)) return jsonError(res, 400, "No session");
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        await makeServer(notes).connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      process.stderr.write(`server.mjs: ${e?.stack ?? e}\n`);
      if (!res.headersSent) jsonError(res, 500, "Internal error");
    }
  });
  httpServer.keepAliveTimeout = 120000;
  httpServer.listen(Number(m[2]), m[1].replace(/^\[|\]$/g, ""));
  const stop = () => httpServer.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 500).unref();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const opts = parseArgs(process.argv.slice(2));
const notes = loadNotes(opts.store);
if (opts.http) serveHttp(notes, opts.http, opts.stateless);
else await makeServer(notes).connect(new StdioServerTransport());
