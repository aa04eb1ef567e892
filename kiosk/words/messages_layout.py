"""The words of the screens laid out to fit a small screen (issue 18, item 1): the win page's
folded "More" and the bar at its foot, English and Japanese; merged into the message catalogue
(`kiosk.words.i18n.MESSAGES`)."""

from __future__ import annotations

LAYOUT_MESSAGES: dict[str, tuple[str, str]] = {
    # The win page's disclosure: what it holds, so nobody has to open it to find out.
    # Captions over a one-tile group where the screen is narrow (the full one where it is not).
    "win.win_short": ("Win", "和了牌"), "win.dora_short": ("Dora", "ドラ"),
    "win.more": ("More: typing, melds, ura dora, rare yaku…",
                 "その他：入力・副露・裏ドラ・稀な役…"),
}
