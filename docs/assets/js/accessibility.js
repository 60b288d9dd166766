// Two fixes for axe-core on elements other scripts create or leave unnamed:
// - Material adds a <nav class="md-code__nav"> (the copy button) to every code
//   block, with no name, so a page with two code blocks has several identical
//   navigation landmarks (landmark-unique). Name each after its block.
// - Notebook code cells (mkdocs-jupyter) scroll sideways but cannot take the
//   keyboard focus, so a keyboard user cannot scroll them
//   (scrollable-region-focusable). Make them focusable, as Material does its own.
(() => {
  const label = (nav) => {
    if (nav.hasAttribute("aria-label")) return;
    const blocks = [...document.querySelectorAll(".md-typeset .highlight")];
    const block = nav.closest(".highlight");
    const title = block?.querySelector(".filename")?.textContent.trim();
    const number = blocks.indexOf(block) + 1;
    nav.setAttribute("aria-label", title ? `Code block ${number}: ${title}` : `Code block ${number}`);
  };
  const fixAll = () => {
    document.querySelectorAll("nav.md-code__nav").forEach(label);
    document.querySelectorAll(".jupyter-wrapper .highlight-ipynb:not([tabindex])")
      .forEach((cell) => cell.setAttribute("tabindex", "0"));
  };
  new MutationObserver(fixAll).observe(document.body, { childList: true, subtree: true });
  fixAll();
})();
