"""The catalogue's words for the game itself: what each event did, why the game ended, chombo
penalties, rulesets, and why a hand does not win (English, Japanese).

Kept apart from the pages' words in `kiosk.words.i18n` (which merges them into one `MESSAGES`) so
that neither file grows past a screenful of screens; `kiosk.words.event_words` builds the sentences.
"""

from __future__ import annotations

GAME_MESSAGES: dict[str, tuple[str, str]] = {
    "list.sep": (", ", "、"),
    # --- one line per event, for the history and the table's last event ---------------------
    "event.started": ("Game started ({rules})", "対局開始（{rules}）"),
    "event.riichi": ("Riichi: {who}", "リーチ：{who}"),
    "event.tsumo": ("Tsumo: {hands}", "ツモ：{hands}"),
    "event.ron": ("Ron off {from}: {hands}", "ロン（放銃：{from}）：{hands}"),
    "event.hand": ("{winner} {worth}", "{winner} {worth}"),
    "event.hand_pao": ("{winner} {worth}, {liable} liable (pao)",
                       "{winner} {worth}（包：{liable}）"),
    "event.tenpai": ("Exhaustive draw, tenpai: {who}", "荒牌流局 聴牌：{who}"),
    "event.noten": ("Exhaustive draw, nobody tenpai", "荒牌流局 全員ノーテン"),
    "event.nagashi": ("Exhaustive draw, nagashi mangan: {who}", "荒牌流局 流し満貫：{who}"),
    "event.abort": ("Abortive draw: {kind}", "途中流局：{kind}"),
    "event.chombo": ("Chombo: {who} ({penalty})", "チョンボ：{who}（{penalty}）"),
    "event.correction": ("Correction: {reason}", "点数修正：{reason}"),
    "event.ended": ("Game ended: {reason}", "対局終了：{reason}"),
    "event.game_over": ("{what}; game over ({why})", "{what}。終局（{why}）"),
    "history.round": ("{round}, {honba}", "{round} {honba}"),
    "history.yaku": ("{name} {han}", "{name} {han}翻"),
    "history.hand": ("{yaku} — {summary}", "{yaku} — {summary}"),
    # --- why the game ended (scorer.table.state.EndReason) -----------------------------------
    "end.last_hand": ("the last hand is over", "オーラス終了"),
    "end.bust": ("a player went bust", "トビ"),
    "end.agari_yame": ("the last dealer won in first place", "アガリやめ"),
    "end.tenpai_yame": ("the last dealer was tenpai in first place", "テンパイやめ"),
    "end.target_reached": ("someone reached the target in the extra round", "延長戦で目標点に到達"),
    "end.extra_round_over": ("the extra round is over", "延長戦終了"),
    "end.called": ("ended by the table", "途中終了"),
    # --- chombo penalties (scorer.rules.ChomboPenalty) ----------------------------------------
    "chombo.reverse_mangan": ("pays a mangan", "満貫払い"),
    "chombo.points": ("{points} points off the final score", "最終成績から{points}点減点"),
    "chombo.pay_each": ("pays {each} to each player", "各自に{each}点払い"),
    # --- the presets (scorer.rules.RULESETS); a ruleset of another name shows as it is named -
    "ruleset.tenhou": ("Tenhou", "天鳳"),
    "ruleset.mahjong_soul": ("Mahjong Soul", "雀魂"),
    "ruleset.mleague": ("M.League", "Mリーグ"),
    "ruleset.wrc": ("WRC", "WRC"),
    "ruleset.ema": ("EMA", "EMA"),
    "ruleset.jpml": ("JPML", "日本プロ麻雀連盟"),
    "ruleset.renmei101": ("101 Kyougi Renmei", "101競技連盟"),
    "ruleset.casual": ("Casual (home)", "カジュアル（家庭用）"),
    "ruleset.tenhou_sanma": ("Tenhou three-player", "天鳳三麻"),
    "ruleset.mahjong_soul_sanma": ("Mahjong Soul three-player", "雀魂三麻"),
    # --- why a hand does not win (kiosk.table.scorer_adapter.verdict) -------------------------
    "verdict.no_yaku": ("No yaku: at least {n} han of yaku are needed (dora do not count)",
                        "役なし：役で{n}翻以上が必要です（ドラは数えません）"),
    "verdict.no_yaku_1": ("No yaku: at least one yaku is needed (dora do not count)",
                          "役なし：役が1つ以上必要です（ドラは数えません）"),
    "verdict.no_yaku_atozuke": ("No yaku on every winning tile of this wait: without atozuke the "
                                "yaku must not depend on the winning tile",
                                "役なし：待ちのどの和了牌でも役がつく必要があります（後付けなし）"),
    "verdict.not_a_win": ("Not a winning hand: {tiles} does not form four sets and a pair, seven "
                          "distinct pairs or thirteen orphans",
                          "和了形ではありません：{tiles}は4面子1雀頭・七対子・国士無双のどれにも"
                          "なりません"),
    "verdict.chankan_not_kokushi": ("Not a legal win: only kokushi musou may rob a closed kan",
                                    "和了できません：暗槓を槍槓できるのは国士無双だけです"),
    "verdict.chankan_rule_off": ("Not a legal win: these rules do not let kokushi musou rob a "
                                 "closed kan",
                                 "和了できません：このルールでは国士無双でも暗槓は槍槓できません"),
    "verdict.furiten": ("Furiten: the winner discarded {tile}, which completes their hand, so "
                        "they cannot win by ron (tsumo only)",
                        "フリテン：和了者は和了牌の{tile}を捨てているのでロンできません"
                        "（ツモのみ）"),
    # --- three players (sanma): Norths pulled out beside the hand (kita), the value-tile North
    "win.kita": ("Kita (Norths pulled out)", "抜き北"),
    "win.kita_help": ("Each North pulled out is a dora.", "抜いた北は1枚につきドラ1。"),
    "win.dora_kita": ("{dora} (kita {n} included)", "{dora}（抜き北{n}枚を含む）"),
    "fu.pair_value_tile": ("value tile", "役牌"),
}
