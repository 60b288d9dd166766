// Material adds a <nav class="md-code__nav"> (the copy button) to every code block,
// with no name, so a page with two code blocks has several identical navigation
// landmarks (axe: landmark-unique). Name each after its block as it appears.
(() => {
  const label = (nav) => {
    if (nav.hasAttribute("aria-label")) return;
    const blocks = [...document.querySelectorAll(".md-typeset .highlight")];
    const block = nav.closest(".highlight");
    const title = block?.querySelector(".filename")?.textContent.trim();
    const number = blocks.indexOf(block) + 1;
    nav.setAttribute("aria-label", title ? `Code block ${number}: ${title}` : `Code block ${number}`);
  };
  const labelAll = () => document.querySelectorAll("nav.md-code__nav").forEach(label);
  new MutationObserver(labelAll).observe(document.body, { childList: true, subtree: true });
  labelAll();
})();
