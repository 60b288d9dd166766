// Typesets TeX with the KaTeX this site vendors (the path is the first argument),
// for hooks/katex.py: one process per build. Each line on stdin is a JSON list of
// [tex, displayMode] pairs; the answer, one line on stdout, is a JSON list of
// {html} or {error} in the same order. Invalid TeX is an error, never red text.
"use strict";
const katex = require(process.argv[2]);
const readline = require("node:readline");

const options = (displayMode) => ({ displayMode, throwOnError: true, strict: "error" });

readline.createInterface({ input: process.stdin, terminal: false }).on("line", (line) => {
  const answers = JSON.parse(line).map(([tex, displayMode]) => {
    try {
      return { html: katex.renderToString(tex, options(displayMode)) };
    } catch (error) {
      return { error: String(error?.message ? error.message : error) };
    }
  });
  process.stdout.write(`${JSON.stringify(answers)}\n`);
});
