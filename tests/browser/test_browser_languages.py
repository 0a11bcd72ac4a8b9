"""German, French, English and Russian — the browser's language first, switchable, remembered.

On every page, every visible text must come from the catalogs (web/i18n/),
the rules texts (web/rules/) or be a literal (a name, a number, a tile);
each catalog text must read exactly as the current language's catalog says.
Checking that before and after a switch proves the switch changed every
visible text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .browser_helpers import shown_as

WEB = Path(__file__).resolve().parents[2] / "src" / "doublesix" / "web"
LANGUAGES = ("de", "fr", "en", "ru")
CATALOGS = {
    lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES
}
RULES = {
    lang: json.loads((WEB / "rules" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES
}

TEXTS_JS = """
() => {
  const out = [];
  const shown = (el) => {
    if (el.closest('select')) return true;  // the chosen option shows
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    return el.getClientRects().length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (!text || /^[\\d\\s\\p{P}\\p{S}]*$/u.test(text)) continue;
    const el = n.parentElement;
    if (!el || el.closest('script, style') || !shown(el)) continue;
    const owner = el.closest('[data-i18n], [data-literal], [data-rules], [lang]:not(html)');
    const item = {text: n.textContent, tag: el.tagName};
    if (owner && owner.hasAttribute('data-i18n') && owner === el) {
      item.key = owner.dataset.i18n;
      item.args = owner.dataset.i18nArgs ? JSON.parse(owner.dataset.i18nArgs) : {};
    } else if (owner && owner.hasAttribute('data-i18n')) {
      item.kind = 'nested';
    } else if (owner && owner.hasAttribute('data-rules')) {
      item.kind = 'rules';
    } else if (owner) {
      item.kind = 'literal';
    } else {
      item.kind = 'none';
    }
    out.push(item);
  }
  for (const el of document.querySelectorAll('input[placeholder]')) {
    out.push({text: el.placeholder, attr: true, keys: el.dataset.i18nAttr || null});
  }
  return {lang: document.documentElement.lang, texts: out};
}
"""


def plural(lang: str, n: float) -> str:
    """The plural form of ``n`` in ``lang``, as ``Intl.PluralRules`` chooses it (CLDR)."""
    if lang == "fr":
        return "one" if 0 <= n < 2 else "other"
    if lang == "ru":
        if n != int(n):
            return "other"
        last, last_two = int(abs(n)) % 10, int(abs(n)) % 100
        if last == 1 and last_two != 11:
            return "one"
        if 2 <= last <= 4 and not 12 <= last_two <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def number(lang: str, value: float) -> str:
    """``value`` as ``Intl.NumberFormat(lang)`` writes it (up to 3 decimals, grouped)."""
    whole, _, fraction = f"{abs(value):.3f}".partition(".")
    fraction = fraction.rstrip("0")
    group, point = {
        "en": (",", "."),
        "de": (".", ","),
        "fr": ("\u202f", ","),
        "ru": ("\u00a0", ","),
    }[lang]
    digits = f"{int(whole):,}".replace(",", group)
    return ("-" if value < 0 else "") + digits + (point + fraction if fraction else "")


def render(lang: str, key: str, args: dict[str, Any]) -> str:
    """The catalog's text of ``key`` in ``lang``, as web/js/i18n.js's ``t`` makes it."""
    cat = CATALOGS[lang]
    msg = cat.get(key, CATALOGS["en"].get(key))
    assert msg is not None, f"{key} is in no catalog"
    if isinstance(msg, dict):
        msg = msg.get(plural(lang, float(args.get("count", 0))), msg["other"])
    values: dict[str, str] = {}
    for name, value in args.items():
        if isinstance(value, dict) and "$t" in value:
            values[name] = render(lang, value["$t"], value.get("args") or {})
        elif isinstance(value, bool):
            values[name] = str(value).lower()
        elif isinstance(value, int | float):
            values[name] = number(lang, value)
        else:
            values[name] = str(value)

    def value(m: re.Match[str]) -> str:
        assert m.group(1) in values, f"{key}: no value for {m.group(0)} (given {sorted(args)})"
        return values[m.group(1)]

    return re.sub(r"\{(\w+)\}", value, str(msg))


def check_page(page: Any, lang: str) -> list[str]:
    """Every visible text of ``page`` comes from ``lang``'s texts; returns the catalog texts."""
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    # the rules page draws its texts again only once it has read the language's rules
    page.wait_for_function(
        "(l) => { const r = document.getElementById('rules'); return !r || r.dataset.lang === l; }",
        arg=lang,
    )
    page.wait_for_timeout(300)  # the page's own re-rendering after a switch
    found = page.evaluate(TEXTS_JS)
    assert found["lang"] == lang
    rules_texts = (
        {
            text
            for section in RULES[lang]["sections"].values()
            for text in [section["title"], *[b.removeprefix("• ") for b in section["body"]]]
        }
        | set(RULES[lang]["presets"].values())
        | set(RULES[lang]["sources"])
        | set(RULES[lang]["figures"].values())
    )
    shown = []
    for item in found["texts"]:
        if item.get("attr"):
            assert item["keys"], f"a placeholder not from the catalog: {item['text']!r}"
            continue
        kind = item.get("kind")
        assert kind != "none", f"{page.url}: text not from a catalog: {item['text']!r}"
        assert kind != "nested", f"{page.url}: text inside a catalog text: {item['text']!r}"
        if kind == "rules":
            assert item["text"].strip() in rules_texts, (
                f"not in rules/{lang}.json: {item['text']!r}"
            )
        if "key" in item:
            expected = render(lang, item["key"], item["args"])
            assert item["text"] == expected, (page.url, item["key"], item["text"], expected)
            shown.append(item["text"])
    assert shown, "no catalog text on the page"
    return shown


def same_words(a: str, b: str) -> set[str]:
    """Texts that two catalogs write alike (names such as "Kozel", words such as "Total")."""
    return {v for k, v in CATALOGS[a].items() if isinstance(v, str) and CATALOGS[b].get(k) == v}


def switch(page: Any, lang: str) -> None:
    page.click(f".lang-switch button[data-lang='{lang}']")


def test_language_follows_the_browser_switches_and_is_remembered(
    new_context: Any, finished_game: str
) -> None:
    page = new_context(locale="de-DE").new_page()
    page.goto("/")
    page.wait_for_selector("#create-form")
    german = check_page(page, "de")
    assert "Willkommen am Dominotisch!" in german
    page.fill("#guest-name", "Jürgen")
    page.click("#guest-form button[type=submit]")
    shown_as(page, "Jürgen")
    check_page(page, "de")
    switch(page, "fr")
    french = check_page(page, "fr")
    assert "Bienvenue à la table de dominos !" in french
    assert set(german) & set(french) <= same_words("de", "fr")
    switch(page, "en")
    check_page(page, "en")

    # The choice is remembered: the rules page opens in English, then switches.
    page.goto("/rules/en/kozel")
    page.wait_for_selector("#kozel_eggs")
    check_page(page, "en")
    switch(page, "de")
    check_page(page, "de")
    assert page.url.endswith("/rules/de/kozel")
    assert "Eier" in page.locator("#kozel_eggs h2").inner_text()

    page.goto(f"/game/{finished_game}")
    page.wait_for_selector(".move-list .move-round")
    check_page(page, "de")
    page.click("#review-start")  # the post-game review's table, in German then French
    page.wait_for_selector(".review-table tbody tr", timeout=60000)
    check_page(page, "de")
    switch(page, "fr")
    check_page(page, "fr")

    page.goto("/replay")
    page.wait_for_selector("#record-file", state="attached")
    check_page(page, "fr")
    switch(page, "en")
    check_page(page, "en")

    # A table in play: seats, hand, score pad, log, the board's labels.
    page.goto("/")
    page.click("#quick-kozel")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#hand .hand-tile")
    page.wait_for_selector("#status.mine", timeout=20000)
    check_page(page, "en")
    switch(page, "de")
    table_de = check_page(page, "de")
    assert "Du bist am Zug" in table_de
    switch(page, "fr")
    assert "À vous de jouer" in check_page(page, "fr")


def test_a_russian_browser_reads_russian_everywhere(
    new_context: Any, finished_game: str, screenshots: Path
) -> None:
    """Kozel's own players' language: the lobby, the rules, a finished game with its review,
    a table in play and the leaderboard, all from the Russian texts."""
    page = new_context(locale="ru-RU").new_page()
    page.goto("/")
    page.wait_for_selector("#create-form")
    russian = check_page(page, "ru")
    assert CATALOGS["ru"]["lobby.welcome"] in russian
    assert set(russian) & set(check_page_after(page, "en")) <= same_words("ru", "en")
    switch(page, "ru")
    page.fill("#guest-name", "Вася")
    page.click("#guest-form button[type=submit]")
    shown_as(page, "Вася")
    check_page(page, "ru")

    page.click("header.top a[href^='/rules/']")  # the bar's link, in the page's language
    page.wait_for_url("**/rules/ru/**")
    page.goto("/rules")  # typed by hand: the browser's language, from its Accept-Language
    page.wait_for_url("**/rules/ru/kozel")
    page.wait_for_selector("#kozel_eggs")
    check_page(page, "ru")

    page.goto(f"/game/{finished_game}")
    page.wait_for_selector(".move-list .move-round")
    check_page(page, "ru")
    page.click("#review-start")
    page.wait_for_selector(".review-table tbody tr", timeout=60000)
    check_page(page, "ru")

    page.goto("/leaderboard/kozel")
    page.wait_for_selector("#find-name")
    check_page(page, "ru")

    page.goto("/")
    page.click("#quick-kozel")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#hand .hand-tile")
    page.wait_for_selector("#status.mine", timeout=20000)
    assert CATALOGS["ru"]["status.your_turn"] in check_page(page, "ru")
    page.screenshot(path=str(screenshots / "table-ru.png"))


def check_page_after(page: Any, lang: str) -> list[str]:
    """Switch ``page`` to ``lang``, then check it."""
    switch(page, lang)
    return check_page(page, lang)
