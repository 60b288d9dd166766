"""MkDocs hook: every formula is typeset when the site is built, so no page loads
KaTeX's JavaScript (276 KB) and no formula moves the text as it appears.

Each `<span|div class="arithmatex">\\(tex\\)</...>` that pymdownx.arithmatex
(generic mode) writes gets the HTML and MathML of the vendored KaTeX
(docs/assets/katex/katex.min.js), run by node in one process for the whole build
(hooks/katex_server.js). An invalid formula stops the build, naming page and
formula. A page with math links KaTeX's stylesheet (served without its fonts) and
carries KaTeX's fonts inline, cut down to the characters its math draws.

It runs on `on_post_page`, after the search plugin indexed the TeX source.
"""

from __future__ import annotations

import atexit
import base64
import functools
import hashlib
import html
import io
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import fontTools
from fontTools import subset
from fontTools.ttLib import TTFont
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.utils import get_relative_url

SERVER = Path(__file__).with_name("katex_server.js")
KATEX_JS = "assets/katex/katex.min.js"  # in docs_dir: read by node, never served
KATEX_CSS = "assets/katex/katex.min.css"

# The fonts are ready before the first layout. A data: URL in @font-face still
# loads asynchronously: on a busy machine the first layout came first, in a
# fallback font, and the math moved when its font came (a layout shift of 0.017
# on cost; 0.002 in the suite under load). A FontFace made from the same bytes is
# loaded when it is made, and one added by script is matched before the
# stylesheet's, which are then never loaded. Without JavaScript the stylesheet's
# faces load as before.
LOAD_FONTS = (
    "for (const rule of document.currentScript.previousElementSibling.sheet.cssRules) {"
    " const get = (name) => rule.style.getPropertyValue(name);"
    ' const text = atob(get("src").match(/base64,([^")]*)/)[1]);'
    " const bytes = new Uint8Array(text.length);"
    " for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);"
    ' const family = get("font-family").replaceAll(\'"\', "");'
    ' const style = get("font-style"), weight = get("font-weight");'
    " document.fonts.add(new FontFace(family, bytes, {style, weight}));"
    " }"
)

# What pymdownx.arithmatex writes in generic mode (its default wrappers).
ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">'
    r"(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\])"
    r"</(?P=tag)>",
    re.S,
)


class InvalidMath(ValueError):
    pass


class Katex:
    """One node process running the vendored KaTeX; `render` typesets a batch."""

    def __init__(self, katex_js: Path):
        node = shutil.which("node")
        if node is None:
            raise PluginError("node is needed to typeset the site's math at build time")
        if not katex_js.is_file():
            raise PluginError(f"{katex_js} is missing: the site's KaTeX")
        command = [node, str(SERVER), str(katex_js.resolve())]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, encoding="utf-8"
        )

    def render(self, formulas: list[tuple[str, bool]]) -> list[str]:
        """KaTeX's HTML for each (tex, display) pair; InvalidMath if one is bad."""
        if not formulas:
            return []
        try:
            self.process.stdin.write(json.dumps(formulas) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise PluginError(f"node stopped while typesetting math ({SERVER.name})")
        answers = json.loads(line)
        for (tex, _), answer in zip(formulas, answers, strict=True):
            if "error" in answer:
                raise InvalidMath(f"invalid math `{tex}`: {answer['error']}")
        return [answer["html"] for answer in answers]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


def typeset(output: str, katex: Katex) -> tuple[str, list[str]]:
    """The page with every formula typeset, and KaTeX's HTML for each formula."""
    formulas = []
    for m in ARITHMATEX.finditer(output):
        display = m["display"] is not None
        tex = m["display"] if display else m["inline"]
        formulas.append((html.unescape(tex), display))
    rendered = katex.render(formulas)
    answers = iter(rendered)
    return ARITHMATEX.sub(
        lambda m: f'<{m["tag"]} class="arithmatex">{next(answers)}</{m["tag"]}>',
        output,
    ), rendered


# -- Which KaTeX fonts a page needs ---------------------------------------------------
# katex.min.css's font rules applied to the classes of KaTeX's markup, without a
# browser; the browser suite checks the result against the fonts Chromium uses.

_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
_FACE = re.compile(r"@font-face\{([^}]*)\}")


def _font_props(declarations: str) -> dict[str, str]:
    props = {}
    for declaration in declarations.split(";"):
        name, _, value = declaration.partition(":")
        name, value = name.strip(), value.strip()
        if name == "font":  # shorthand: style and weight back to normal, then family
            props.update(style="normal", weight="400")
            props["family"] = value.split(",")[0].split()[-1]
        elif name == "font-family":
            props["family"] = value.split(",")[0].strip()
        elif name == "font-weight":
            props["weight"] = {"normal": "400", "bold": "700"}.get(value, value)
        elif name == "font-style":
            props["style"] = value
    return props


def _compound(text: str) -> tuple[str | None, frozenset[str]]:
    tag, *classes = text.split(".")
    return (tag or None), frozenset(classes)


class KatexFonts:
    """katex.min.css's font rules and faces, applied to KaTeX's markup."""

    def __init__(self, css: str):
        self.faces = {}  # (family, weight, style) -> url, relative to the CSS
        for face in _FACE.findall(css):
            props = _font_props(face)
            url = re.search(r"url\(([^)]+\.woff2)\)", face)[1]
            self.faces[props["family"], props["weight"], props["style"]] = url
        self.rules = []  # (specificity, order, [(combinator, compound), ...], props)
        for order, (selectors, declarations) in enumerate(
            _RULE.findall(_FACE.sub("", css))
        ):
            props = _font_props(declarations)
            if not props:
                continue
            for selector in selectors.split(","):
                parts = re.findall(r"(>?)\s*([\w.-]+)", selector.strip())
                chain = [(c, _compound(s)) for c, s in parts]
                specificity = sum(len(classes) for _, (_, classes) in chain)
                self.rules.append((specificity, order, chain, props))
        self.rules.sort(key=lambda rule: rule[:2])

    @staticmethod
    def matches(chain, stack) -> bool:
        """Does the selector chain match the last element of `stack`?"""

        def fits(compound, element):
            tag, classes = compound
            return (tag is None or tag == element[0]) and classes <= element[1]

        *ancestors, (combinator, last) = chain
        if not fits(last, stack[-1]):
            return False
        i = len(stack) - 1
        for prior_combinator, compound in reversed(ancestors):
            i -= 1
            if combinator != ">":  # a descendant: the nearest ancestor that fits
                while i >= 0 and not fits(compound, stack[i]):
                    i -= 1
            if i < 0 or not fits(compound, stack[i]):
                return False
            combinator = prior_combinator
        return True

    def face(self, family: str, weight: str, style: str) -> str | None:
        """The @font-face a browser picks: same family, closest style, then weight."""
        candidates = [key for key in self.faces if key[0] == family]
        if not candidates:
            return None
        best = min(
            candidates,
            key=lambda k: (k[2] != style, abs(int(k[1]) - int(weight))),
        )
        return self.faces[best]

    def characters(self, page_html: str) -> dict[str, set[str]]:
        """The characters the page's math draws in each font (URL: characters)."""
        chars: dict[str, set[str]] = {}
        _FontWalker(self, chars).feed(page_html)
        return chars


class _FontWalker(HTMLParser):
    """Follows each element's font (family, weight, style) down the tree."""

    VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}
    NONE = {"family": "", "weight": "400", "style": "normal"}

    def __init__(self, katex_fonts: KatexFonts, chars: dict[str, set[str]]):
        super().__init__(convert_charrefs=True)
        self.css, self.chars = katex_fonts, chars
        self.elements = []  # (tag, classes) of each open element, outermost first
        self.font_of = []  # and the font each one is drawn in

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        self.elements.append((tag, frozenset((dict(attrs).get("class") or "").split())))
        font = dict(self.font_of[-1] if self.font_of else self.NONE)
        for _, _, chain, props in self.css.rules:  # in the cascade's order
            if self.css.matches(chain, self.elements):
                font.update(props)
        self.font_of.append(font)

    def handle_endtag(self, tag):
        if tag not in [open_tag for open_tag, _ in self.elements]:
            return  # a stray end tag
        while self.elements:
            self.font_of.pop()
            if self.elements.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not data.strip() or not self.elements:
            return
        if not any("katex-html" in classes for _, classes in self.elements):
            return  # outside math; KaTeX's MathML copy is drawn in the math font
        url = self.css.face(**self.font_of[-1])
        if url:
            self.chars.setdefault(url, set()).update(data)


# -- Each page's fonts, cut down to the characters it draws ------------------------
# The whole fonts are 30 to 50 KB a page, fetched after the first layout (a chain
# of three requests); cut to the few dozen characters drawn, 1 to 8 KB, inline: no
# request, and the math is drawn at once in its own font. A character a font lacks
# (KaTeX's zero-width spaces) is drawn by the next font in KaTeX's list, as with
# the whole font.
@functools.cache
def _decompressed(woff2: Path) -> bytes:
    """The font as plain OpenType: read once, then each subset starts from it in
    7 ms instead of 76 (WOFF2's Brotli decompressed every time)."""
    font = TTFont(woff2)
    font.flavor = None
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


class FontSubsets:
    """@font-face rules, with the fonts inline, for the characters math draws.
    With `cache`, a folder, each subset is kept there, keyed on the font, the
    characters and fontTools' version: a later build reads it back."""

    def __init__(self, katex_css: Path, cache: Path | None = None):
        self.fonts = KatexFonts(katex_css.read_text(encoding="utf-8"))
        self.folder = katex_css.parent
        self.face_of = {url: face for face, url in self.fonts.faces.items()}
        self.cache = cache

    @functools.lru_cache(maxsize=64)  # noqa: B019 (a rebuild: most pages unchanged)
    def css(self, math_html: str) -> str:
        rules = []
        for url, drawn in sorted(self.fonts.characters(math_html).items()):
            chars = drawn & self.characters_of(url)
            if not chars:
                continue
            family, weight, style = self.face_of[url]
            data = base64.b64encode(self.subset(url, "".join(sorted(chars))))
            ranges = ",".join(f"U+{ord(char):X}" for char in sorted(chars))
            rules.append(
                f"@font-face{{font-family:{family};font-style:{style};"
                f"font-weight:{weight};src:url(data:font/woff2;base64,"
                f'{data.decode()}) format("woff2");unicode-range:{ranges}}}'
            )
        return "".join(rules)

    @functools.lru_cache  # noqa: B019 (one FontSubsets per build)
    def characters_of(self, url: str) -> frozenset[str]:
        """The characters the whole font has a shape for."""
        cmap = TTFont(io.BytesIO(_decompressed(self.folder / url))).getBestCmap()
        return frozenset(map(chr, cmap))

    @functools.lru_cache(maxsize=256)  # noqa: B019 (one FontSubsets per build)
    def subset(self, url: str, chars: str) -> bytes:
        """The font at `url` (relative to katex.min.css) with only `chars`, as WOFF2."""
        woff2 = self.folder / url
        saved = None
        if self.cache is not None:
            key = hashlib.sha256(woff2.read_bytes())
            key.update(f"{chars}\0{fontTools.version}".encode())
            saved = self.cache / f"{woff2.stem}-{key.hexdigest()[:16]}.woff2"
            if saved.is_file():
                return saved.read_bytes()
        font = TTFont(io.BytesIO(_decompressed(woff2)))
        options = subset.Options(hinting=False, name_IDs=[])
        options.layout_features = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        font.flavor = "woff2"
        out = io.BytesIO()
        font.save(out)
        if saved is not None:
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_bytes(out.getvalue())
        return out.getvalue()


# -- MkDocs events ------------------------------------------------------------------

_katex: Katex | None = None  # started on the first page with math, kept across
# rebuilds under `mkdocs serve`, ended when MkDocs shuts down


def on_shutdown():
    global _katex
    if _katex is not None:
        _katex.close()
        _katex = None


atexit.register(on_shutdown)
_subsets = functools.cache(FontSubsets)  # one per stylesheet and cache folder


def on_files(files, config):
    """KaTeX's stylesheet without its @font-face rules (the pages carry their fonts)."""
    css = (Path(config["docs_dir"]) / KATEX_CSS).read_text(encoding="utf-8")
    vendored = files.get_file_from_path(KATEX_CSS)  # excluded (mkdocs.yml), listed
    if vendored is not None:
        files.remove(vendored)
    served = _FACE.sub("", css)
    included = InclusionLevel.INCLUDED
    files.append(File.generated(config, KATEX_CSS, content=served, inclusion=included))
    return files


def on_post_page(output, page, config):
    global _katex
    if "arithmatex" not in output:
        return output
    if _katex is None:
        _katex = Katex(Path(config["docs_dir"]) / KATEX_JS)
    try:
        output, rendered = typeset(output, _katex)
    except InvalidMath as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
    if not rendered:
        return output
    href = get_relative_url(KATEX_CSS, page.url)
    docs = Path(config["docs_dir"])
    subsets = _subsets(docs / KATEX_CSS, docs.parent / ".cache" / "katex-fonts")
    faces = subsets.css("".join(rendered))
    fonts = f"<style>{faces}</style>\n<script>{LOAD_FONTS}</script>"
    # the faces and the script before the theme's stylesheets: a script after a
    # stylesheet waits for it to arrive, and the page's parsing with it
    first_sheet = output.find('<link rel="stylesheet"', 0, output.find("</head>"))
    if first_sheet < 0:
        raise PluginError(f"{page.file.src_uri}: no stylesheet in the head")
    output = output[:first_sheet] + fonts + "\n" + output[first_sheet:]
    sheet = f'<link rel="stylesheet" href="{href}">\n</head>'
    return output.replace("</head>", sheet, 1)
