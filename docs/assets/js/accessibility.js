// Two fixes for axe-core on what Material creates or sets up late.
// - Material adds a <nav class="md-code__nav"> (the copy button) to every code
//   block, with no name, so a page with two code blocks has several identical
//   navigation landmarks (landmark-unique). Name each after its block. Only navs
//   not yet named are visited, so each costs one look, however often Material
//   changes the page.
// - Material makes a code block that scrolls sideways focusable, so that a
//   keyboard can scroll it, but (content.lazy, mkdocs.yml) only once the block
//   comes into view. Until then every code block is focusable; Material takes
//   the focus back from those that do not scroll as it sets each one up. Setting
//   an attribute costs no layout, unlike asking which blocks scroll.
(() => {
  const name = () => {
    const navs = document.querySelectorAll("nav.md-code__nav:not([aria-label])");
    if (navs.length === 0) return;
    const blocks = [...document.querySelectorAll(".md-typeset .highlight")];
    for (const nav of navs) {
      const block = nav.closest(".highlight");
      const title = block?.querySelector(".filename")?.textContent.trim();
      const number = blocks.indexOf(block) + 1;
      nav.setAttribute("aria-label", title ? `Code block ${number}: ${title}` : `Code block ${number}`);
    }
  };
  for (const code of document.querySelectorAll(".md-typeset .highlight pre > code:not([tabindex])")) {
    code.setAttribute("tabindex", "0");
  }
  new MutationObserver(name).observe(document.body, { childList: true, subtree: true });
  name();
})();
