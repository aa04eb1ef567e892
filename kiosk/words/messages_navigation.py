"""The words of the new-game form's layout and of the games page (list, resume, import), English
and Japanese; merged into the message catalogue (`kiosk.words.i18n.MESSAGES`)."""

from __future__ import annotations

NAVIGATION_MESSAGES: dict[str, tuple[str, str]] = {
    "nav.games": ("Games", "対局一覧"),
    # --- the new-game form: a preset first, the options in collapsed groups
    "new.players": ("Players, East seat first", "プレイヤー（東家から）"),
    "new.groups": ("Change a rule (optional)", "ルールを変える（任意）"),
    "new.changed": ("{n} changed", "{n}件変更"),
    # --- the new-game form's member picker (a parlor's table: kiosk/web/static/member_picker.js)
    "members.title": ("Members", "会員"),
    "members.seat": ("Seat", "席"),
    "members.search": ("Name or member number", "名前または会員番号"),
    "members.find": ("Search", "検索"),
    "members.scan": ("Scan card", "カードを読む"),
    "members.help": ("Pick a member for the seat; a guest's name is typed in the seat.",
                     "会員を選ぶと席に入ります。ゲストは席に名前を入力してください。"),
    "members.searching": ("Searching…", "検索中…"),
    "members.scanning": ("Hold the card's QR code in front of the camera…",
                         "カードのQRコードをカメラに向けてください…"),
    "members.found": ("{n} members found: tap one", "{n}人見つかりました。選んでください"),
    "members.found_1": ("1 member found: tap to pick", "1人見つかりました。選んでください"),
    "members.none": ("No member found: a guest's name is typed in the seat.",
                     "該当する会員はいません。ゲストは席に名前を入力してください。"),
    "members.picked": ("{name}: {seat}", "{name}：{seat}"),
    "members.card_offline": ("Card {number} read; the parlor cannot be reached, so type the "
                             "name before #{number}.",
                             "会員番号{number}のカードを読みました。店舗サーバーに接続できない"
                             "ため、#{number}の前に名前を入力してください。"),
    "members.member": ("Member", "会員"),
    # --- the games page
    "games.title": ("Games", "対局一覧"),
    "games.current": ("Playing now", "現在の対局"),
    "games.finished": ("Finished", "終了"),
    "games.resume": ("Resume", "再開"),
    "games.see_standings": ("Standings", "順位を見る"),
    "games.unreadable": ("Cannot be read: {error}", "読み込めません：{error}"),
    "games.events": ("{n} events recorded", "記録{n}件"),
    "games.events_1": ("1 event recorded", "記録1件"),
    "games.started": ("Started {date}", "{date} 開始"),
    "games.none": ("No games stored yet.", "保存された対局はありません。"),
    "games.more": ("The {shown} newest of {total} games", "全{total}局のうち新しい{shown}局"),
    "games.import": ("Import a game record", "対局記録を取り込む"),
    "games.import_help": ("A JSON file exported by a kiosk (History, Export JSON). It is added "
                          "as a new game; the games here stay as they are.",
                          "キオスクが書き出したJSONファイル（履歴の「JSON出力」）。新しい対局として"
                          "追加され、ここにある対局はそのまま残ります。"),
    "games.import_file": ("Game record file", "対局記録ファイル"),
    "games.import_button": ("Import", "取り込む"),
    "games.imported": ("Imported: {players}. It is the current game now.",
                       "取り込みました：{players}。現在の対局になりました。"),
    "games.import_failed": ("{file} was not imported; nothing stored was changed. The problem:",
                            "{file}は取り込めませんでした（保存済みの対局は変わっていません）。問題："),
    "games.pick_file": ("Choose a game record file first.",
                        "先に対局記録ファイルを選んでください。"),
    "games.round": ("{round}, {honba}", "{round} {honba}"),
    # The CSV export's columns (kiosk/table/present.py history_csv), in the session's language.
    "csv.index": ("index", "番号"), "csv.hand": ("hand", "局"), "csv.event": ("event", "内容"),
    "csv.change": ("{player} change", "{player} 増減"),
    "csv.points": ("{player} points", "{player} 持ち点"),
    "csv.honba": ("honba", "本場"), "csv.sticks": ("sticks", "供託"),
    "csv.place": ("place", "順位"), "csv.player": ("player", "名前"),
    "csv.score_points": ("points", "持ち点"), "csv.uma": ("uma", "ウマ"),
    "csv.oka": ("oka", "オカ"),
    "csv.penalty": ("penalty", "罰符"), "csv.final": ("final", "成績"),
}
