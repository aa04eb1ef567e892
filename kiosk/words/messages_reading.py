"""The catalogue's words for checking and fixing a reading and entering a hand quickly: the
problems of a photographed hand in a player's words, the fix menu, the staying-open picker and
the mpsz text box (English, Japanese; issue 18, items 3 and 10).

Kept apart from the pages' words in `kiosk.words.i18n`, which merges them into one `MESSAGES`;
`kiosk.words.reading_words` and `static/hand_edit.js`, `win_fix.js`, `draw_tenpai.js` use them.
"""

from __future__ import annotations

READING_MESSAGES: dict[str, tuple[str, str]] = {
    "reading.extra": ("{count} tiles may be extra: {tiles}. Remove them, or drag them where "
                      "they belong.",
                      "余分な牌が{n}枚あるかもしれません：{tiles}。削除するか、正しい場所へ動かしてください。"),
    "reading.extra_1": ("One tile may be extra: {tiles}. Remove it, or drag it where it belongs.",
                        "余分な牌が1枚あるかもしれません：{tiles}。削除するか、正しい場所へ動かしてください。"),
    "reading.missing": ("{count} tiles are missing: a winning hand has 14. Add them with +, or "
                        "lay them in the row and take the photo again.",
                        "牌が{n}枚足りません（和了形は14枚）。＋で追加するか、列に並べて撮り直してください。"),
    "reading.missing_1": ("One tile is missing: a winning hand has 14. Add it with +, or lay it "
                          "in the row and take the photo again.",
                          "牌が1枚足りません（和了形は14枚）。＋で追加するか、列に並べて撮り直してください。"),
    "reading.no_win": ("No winning tile set apart: drag the winning tile to “Winning tile”, or "
                       "leave a gap before it and take the photo again.",
                       "和了牌が離して置かれていません：和了牌を「和了牌」へ動かすか、少し離して撮り直してください。"),
    "reading.too_many": ("{count} {tiles}: a set has only four. Check the marked tiles.",
                         "{tiles}が{n}枚あります（1種類4枚まで）。印の付いた牌を確認してください。"),
    "reading.red_fives": ("{count} red fives ({tiles}): a set has one of each. Check the marked "
                          "tiles.",
                          "{tiles}が{n}枚あります（各1枚まで）。印の付いた牌を確認してください。"),
    "reading.meld_not_set": ("Meld {meld} ({kind}) is not a set: {tiles}. Check its tiles.",
                             "副露{meld}（{kind}）が面子になっていません：{tiles}。牌を確認してください。"),
    "reading.set_aside": ("{count} tiles were set aside, not counted in the hand (grey): "
                          "{tiles}. Tap one to bring it in.",
                          "{n}枚を手牌から外しました（灰色、数えません）：{tiles}。押すと手牌に入ります。"),
    "reading.set_aside_1": ("One tile was set aside, not counted in the hand (grey): {tiles}. "
                            "Tap it to bring it in.",
                            "1枚を手牌から外しました（灰色、数えません）：{tiles}。押すと手牌に入ります。"),
    "reading.set_aside_many": ("{n} tiles away from the hand were set aside, not counted in it "
                               "(grey). Tap one to bring it in.",
                               "手牌から離れた{n}枚を外しました（灰色、数えません）。押すと手牌に入ります。"),
    "reading.not_a_win": ("These tiles do not make a winning hand: compare each with the photo "
                          "and tap any that is wrong.",
                          "和了の形になっていません：写真と見比べて、違う牌を押して直してください。"),
    "reading.red": ("red {name}", "赤{name}"),
    "reading.none": ("No tiles found in the photo.", "写真に牌が見つかりません。"),
    "reading.all_good": ("{n} tiles read, none doubtful. Tap Winner (and who dealt in), then "
                         "Apply.",
                         "{n}枚を読み取りました（要確認の牌なし）。和了者（ロンなら放銃者）を選んで確定してください。"),
    "reading.check": ("{n} tiles read: check the {d} marked. Tap a tile or its box to change it.",
                      "{n}枚を読み取りました：印の付いた{d}枚を確認してください。牌か枠を押すと直せます。"),
    "fix.what": ("Which tile is it?", "どの牌ですか？"),
    "fix.read_as": ("Read as {name} ({p}%)", "{name}と読み取り（{p}%）"),
    "fix.keep": ("Keep {name}", "{name}のまま"),
    "fix.other": ("Other tile…", "ほかの牌…"),
    "fix.move_win": ("Make it the winning tile", "和了牌にする"),
    "fix.move_hand": ("Move to the hand", "手牌へ移す"),
    "fix.move_meld": ("Move to meld {n}", "副露{n}へ移す"),
    "fix.full": ("No room there: {group} is full.", "{group}はいっぱいです。"),
    "fix.left_out": ("Set aside, not counted", "手牌外（数えません）"),
    "fix.clear_dora": ("Clear", "クリア"),
    "fix.clear_dora_title": ("Set the dora indicators aside", "ドラ表示牌をすべて外す"),
    "fix.help": ("Tap a tile or its box on the photo to change it; drag a tile onto the winning "
                 "tile or into a meld to move it.",
                 "牌か写真の枠を押すと直せます。牌をドラッグすると和了牌や副露へ移せます。"),
    "entry.next": ("{group}: tile {k} of {n}", "{group}：{k}/{n}枚目"),
    "entry.next_win": ("Now the winning tile", "次は和了牌"),
    "entry.g_concealed": ("Hand", "手牌"), "entry.g_win": ("Winning tile", "和了牌"),
    "entry.g_dora": ("Dora indicators", "ドラ表示牌"),
    "entry.g_ura": ("Ura dora indicators", "裏ドラ表示牌"),
    "entry.g_discards": ("Discards", "捨て牌"), "entry.g_unplaced": ("Left out", "手牌外"),
    "entry.done": ("Done", "完了"),
    "entry.back": ("Take back the last tile", "最後の1枚を戻す"),
    "entry.manual_help": ("Tap + once, then each tile in turn (the hand, then the winning tile); "
                          "or type the hand in the box.",
                          "＋を一度押し、牌を順に押してください（手牌の次に和了牌）。文字でも入力できます。"),
    "entry.label": ("Type the hand", "文字で入力"),
    "entry.help": ("e.g. 123m456p789s1122z: digits, then m, p, s or z; 0 is a red five; the "
                   "last tile is the winning tile.",
                   "例：123m456p789s1122z（数字の後に m・p・s・z、0は赤五、最後の牌が和了牌）"),
    "entry.help_draw": ("e.g. 123m456p789s112z: digits, then m, p, s or z; 0 is a red five.",
                        "例：123m456p789s112z（数字の後に m・p・s・z、0は赤五）"),
    "entry.set": ("Set", "反映"),
    "entry.err_empty": ("Type the tiles first, e.g. 123m456p789s1122z.",
                        "牌を入力してください（例：123m456p789s1122z）。"),
    "entry.err_no_suit": ("“{part}” has no suit letter after it: add m, p, s or z.",
                          "「{part}」の後に m・p・s・z がありません。"),
    "entry.err_no_digit": ("“{part}”: a suit letter needs digits before it, as in 123m.",
                           "「{part}」：m・p・s・z の前に数字が必要です（例：123m）。"),
    "entry.err_char": ("“{part}” is not a tile: write digits, then m, p, s or z.",
                       "「{part}」は牌ではありません。数字の後に m・p・s・z を書いてください。"),
    "entry.err_honour": ("“{part}”: honours are 1z to 7z.", "「{part}」：字牌は1z〜7zです。"),
    "entry.err_honour_red": ("“{part}”: 0 is a red five, and honours have none.",
                             "「{part}」：0は赤五です。字牌にはありません。"),
    "entry.err_count": ("{n} tiles typed: with {melds} melds the hand takes {hand}, or {whole} "
                        "with the winning tile.",
                        "{n}枚入力されました：副露{melds}組なら手牌は{hand}枚、和了牌を含めて{whole}枚です。"),
    "entry.err_count_draw": ("{n} tiles typed: with {melds} melds a waiting hand has {hand}.",
                             "{n}枚入力されました：副露{melds}組なら聴牌形は{hand}枚です。"),
    "entry.err_too_many": ("“{part}”: {n} of one tile, and a set has only four.",
                           "「{part}」：同じ牌が{n}枚あります（4枚まで）。"),
    # Whom a pon or kan was called from: its sideways tile's place (win_fix.js).
    "meld.from": ("Called from", "鳴いた相手"),
    "meld.from_kamicha": ("From left", "上家から"),
    "meld.from_toimen": ("From across", "対面から"),
    "meld.from_shimocha": ("From right", "下家から"),
}
