// A fix for axe-core on what Material creates late: Material adds a
// <nav class="md-code__nav"> (the copy button) to a code block's <pre> as it sets
// the block up, when the block comes into view (content.lazy, mkdocs.yml), with
// no name, so a page with two code blocks has several identical navigation
// landmarks (landmark-unique). Name each after its block.
// Only the code blocks' <pre> elements are watched, for children added to them:
// not the whole body, whose every change (search results, the explorers' maps
// redrawn as the reader drags) would run the check again. Every code block is
// focusable from the start (hooks/page_load.py writes tabindex="0" into the HTML).
(() => {
  const blocks = [...document.querySelectorAll(".md-typeset .highlight")];
  const name = (nav) => {
    const block = nav.closest(".highlight");
    const title = block?.querySelector(".filename")?.textContent.trim();
    const number = blocks.indexOf(block) + 1;
    nav.setAttribute("aria-label", title ? `Code block ${number}: ${title}` : `Code block ${number}`);
  };
  const unnamed = (node) => node instanceof Element && node.matches("nav.md-code__nav:not([aria-label])");
  const observer = new MutationObserver((records) => {
    for (const record of records) [...record.addedNodes].filter(unnamed).forEach(name);
  });
  for (const block of blocks) {
    const pre = block.querySelector("pre");
    if (pre) observer.observe(pre, { childList: true });
  }
  document.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach(name);
})();
