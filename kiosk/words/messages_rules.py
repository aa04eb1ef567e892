"""The rule options' words for the new-game form, English and Japanese: each group and option
with its name and one line of explanation, each preset's explanation (its name is
`ruleset.NAME`), and each closed choice. Merged into the message catalogue
(`kiosk.words.i18n.MESSAGES`) under `preset.*`, `group.*`, `opt.*` and `choice.*`.

Kept apart from `kiosk.words.i18n` because it is a table of its own (one row per `Ruleset` field,
checked against the fields by tests/kiosk/test_rule_form.py), not page text.
"""

from __future__ import annotations

# name: (English name, Japanese name, English explanation, Japanese explanation)
_Row = tuple[str, str, str, str]

# preset: (English explanation, Japanese explanation); the names are `ruleset.*` in
# kiosk/words/messages_game.py, as the table shows them
PRESETS: dict[str, tuple[str, str]] = {
    "tenhou": ("Red fives, open tanyao, hanchan; 25,000 start, uma 20/10.",
               "赤あり・喰いタンあり・半荘戦。25,000点持ち、ウマ10-20。"),
    "mahjong_soul": ("As Tenhou, with double yakuman, all three rons paid, uma 15/5, no oka.",
                     "天鳳に近い。ダブル役満・トリプルロンあり、ウマ5-15、オカなし。"),
    "mleague": ("Professional league: no bust, no West round, uma 30/10, head bump.",
                "トビなし・西入なし・ウマ10-30・頭ハネ。"),
    "wrc": ("World Riichi Championship 2015: no red fives, kiriage, 30,000 start, uma 15/5.",
            "世界大会2015年版。赤なし・切り上げ満貫・30,000点持ち・ウマ5-15。"),
    "ema": ("European rules: no red fives, no abortive draws, 30,000 start, uma 15/5.",
            "欧州ルール。赤なし・途中流局なし・30,000点持ち・ウマ5-15。"),
    "jpml": ("No red fives, ippatsu or ura dora; 30,000 start, floating uma.",
             "赤・一発・裏ドラなし。30,000点持ち、順位ウマは変動。"),
    "renmei101": ("No red fives, ippatsu or ura dora; 30,000 start, uma +1/-1.",
                  "赤・一発・裏ドラなし。30,000点持ち、ウマ+1/-1。"),
    "casual": ("A home table: kiriage, renhou as mangan, double yakuman, no bust.",
               "家庭向け。切り上げ満貫・人和は満貫・ダブル役満・トビなし。"),
    "tenhou_sanma": ("Three players: no 2m-8m, North as kita, 35,000 start, uma 20/0/-20.",
                     "三人麻雀。2萬-8萬なし・北抜きドラ・35,000点持ち・ウマ0-20。"),
    "mahjong_soul_sanma": ("Three players as on Mahjong Soul: North is a yakuhai, uma 15/0/-15.",
                           "雀魂の三人麻雀。北は役牌・ウマ0-15。"),
}

GROUPS: dict[str, _Row] = {
    "scoring": ("Scoring", "点数計算",
                "Red fives, open tanyao, minimum han, fu details, kiriage",
                "赤ドラ・喰いタン・縛り・符・切り上げ満貫"),
    "dora": ("Dora and ippatsu", "ドラ・一発", "Ippatsu, ura dora and kan dora",
             "一発・裏ドラ・カンドラ"),
    "limits": ("Limits and yakuman", "役満・上限", "Kazoe, double yakuman, renhou, pao",
               "数え役満・ダブル役満・人和・包"),
    "payments": ("Table payments", "支払い",
                 "Honba, riichi sticks, noten payments, double and triple ron",
                 "本場・リーチ棒・ノーテン罰符・ダブロン"),
    "draws": ("Draws and renchan", "流局・連荘", "Renchan, nagashi mangan, abortive draws",
              "連荘・流し満貫・途中流局"),
    "penalties": ("Chombo", "チョンボ", "What a foul costs", "反則の罰則"),
    "game_end": ("Game length and end", "対局の長さ・終了",
                 "East only or hanchan, bust, West round, agari yame",
                 "東風・半荘、トビ、西入、和了止め"),
    "final_score": ("Final score", "最終成績", "Return points, uma, leftover sticks, ties",
                    "返し点・ウマ・供託・同点"),
}

OPTIONS: dict[str, _Row] = {
    # --- scoring
    "red_fives": ("Red fives", "赤ドラ",
                  "One red five per suit; each is one han of dora.",
                  "各色に赤五を1枚。1枚につき1翻のドラ。"),
    "kuitan": ("Open tanyao (kuitan)", "喰いタン",
               "All simples counts in an open hand too.", "鳴いた手でも断么九を認める。"),
    "atozuke": ("Atozuke", "後付け",
                "The yaku may come from the winning tile alone (e.g. a dragon pair wait).",
                "和了牌で初めて役が確定する和了を認める（役牌のシャンポン待ちなど）。"),
    "min_han": ("Han needed to win", "縛り（最低翻数）",
                "Han without dora that a hand needs to win; 2 is ryanhan shibari.",
                "和了に必要なドラを除く翻数。2なら二翻縛り。"),
    "double_wind_pair_fu": ("Double wind pair fu", "連風牌の雀頭の符",
                            "Fu for a pair of the seat wind that is also the round wind.",
                            "自風でもあり場風でもある雀頭の符。"),
    "rinshan_tsumo_fu": ("Tsumo fu on rinshan", "嶺上開花のツモ符",
                         "A win on the kan replacement tile counts the 2 tsumo fu.",
                         "嶺上牌での和了にもツモの2符をつける。"),
    "kiriage": ("Kiriage mangan", "切り上げ満貫",
                "4 han 30 fu and 3 han 60 fu are paid as mangan.",
                "4翻30符と3翻60符を満貫として払う。"),
    # --- dora and ippatsu
    "ippatsu": ("Ippatsu", "一発",
                "A win within one go-around after riichi adds one han.",
                "リーチ後一巡以内の和了に1翻をつける。"),
    "ura_dora": ("Ura dora", "裏ドラ",
                 "A riichi winner also counts the tiles under the indicators.",
                 "リーチで和了した人は裏ドラも数える。"),
    "kan_dora": ("Kan dora", "カンドラ",
                 "Each kan turns a new dora indicator.", "槓のたびに新しいドラ表示牌をめくる。"),
    "kan_ura_dora": ("Kan ura dora", "カン裏",
                     "Each kan's indicator has its ura dora too.",
                     "カンドラの表示牌にも裏ドラがある。"),
    # --- limits and yakuman
    "kazoe": ("13 han or more (kazoe)", "数え役満",
              "What 13 or more counted han are worth.", "13翻以上の手の価値。"),
    "stacked_yakuman": ("Stacked yakuman", "役満の複合",
                        "Several yakuman in one hand add up.", "1つの手の複数の役満を合計する。"),
    "double_yakuman": ("Double yakuman hands", "ダブル役満",
                       "13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii count double.",
                       "国士十三面・四暗刻単騎・純正九蓮・大四喜を2倍役満とする。"),
    "renhou": ("Renhou", "人和",
               "A ron before one's first draw, with no call made: what it is worth.",
               "最初のツモの前、鳴きのないロン和了の扱い。"),
    "kokushi_chankan_ankan": ("Kokushi robs a closed kan", "国士無双の暗槓槍槓",
                              "Thirteen orphans may win on the tile of a closed kan.",
                              "国士無双に限り暗槓への槍槓を認める。"),
    "pao": ("Pao (liability)", "包（責任払い）",
            "Yakuman whose last set, fed by a call, makes the feeder pay.",
            "鳴かせて確定させた人が責任払いとなる役満。"),
    # --- table payments
    "honba_value": ("Honba value", "本場の点",
                    "Per honba: a ron pays all of it, a tsumo a third from each payer.",
                    "1本場あたり。ロンは放銃者が全額、ツモは各自が3分の1。"),
    "riichi_stick": ("Riichi stick", "リーチ棒", "Points a riichi puts on the table.",
                     "リーチで供託する点数。"),
    "riichi_needs_points": ("Riichi needs 1,000 points", "リーチは1,000点以上",
                            "A player below 1,000 points may not declare riichi.",
                            "持ち点1,000点未満ではリーチできない。"),
    "noten_total": ("Noten payment", "ノーテン罰符",
                    "Paid in all by the noten players to the tenpai ones at a draw.",
                    "流局時、ノーテンの人からテンパイの人へ払う合計。"),
    "double_ron": ("Double ron", "ダブロン",
                   "Two rons on one discard are both paid (off: the nearest winner only).",
                   "1枚の捨て牌への2人のロンを両方認める（なしなら頭ハネ）。"),
    "triple_ron": ("Triple ron", "トリプルロン",
                   "Three rons on one discard.", "1枚の捨て牌への3人のロンの扱い。"),
    # --- draws and renchan
    "renchan": ("Dealer keeps the deal", "親の連荘",
                "At an exhaustive draw: when tenpai, or only by a dealer win.",
                "荒牌流局で親が連荘する条件。"),
    "nagashi_mangan": ("Nagashi mangan", "流し満貫",
                       "Only terminals and honours discarded, none called: a mangan at the draw.",
                       "么九牌だけを捨て、鳴かれなければ流局時に満貫。"),
    "abortive_draws": ("Abortive draws", "途中流局",
                       "Nine terminals, four winds, four riichi and four kans end the hand.",
                       "九種九牌・四風連打・四家立直・四開槓で局を流す。"),
    "abortive_renchan": ("Redeal after an abortive draw", "途中流局は親の連荘",
                         "The same dealer deals again (off: the deal moves on).",
                         "同じ親でやり直す（なしなら親が流れる）。"),
    "riichi_abort_count": ("Riichi that abort the hand", "途中流局になるリーチ数",
                           "This many riichi declarations end the hand (3: sancha riichi).",
                           "この人数がリーチすると局を流す（3なら三家立直）。"),
    # --- chombo
    "chombo": ("Chombo penalty", "チョンボの罰則", "What a player who fouls pays.",
               "反則した人の罰則。"),
    "chombo_points": ("Chombo: points off", "チョンボの減点",
                      "Taken off the final score when the penalty is points.",
                      "罰則が減点のとき、最終成績から引く点数。"),
    "chombo_each": ("Chombo: paid to each", "チョンボの支払い（各自）",
                    "Paid to each of the other three when the penalty is a payment.",
                    "罰則が支払いのとき、他の3人それぞれに払う点数。"),
    # --- game length and end
    "length": ("Game length", "対局の長さ", "East round only, or East and South.",
               "東風戦か半荘戦か。"),
    "tobi": ("Bust ends the game (tobi)", "トビ終了",
             "The game ends when a player goes below zero.",
             "持ち点がマイナスになる人が出たら終了。"),
    "tobi_at_zero": ("Bust at exactly zero", "0点でトビ",
                     "Exactly zero points counts as bust too.", "ちょうど0点もトビとする。"),
    "west_round": ("Play on into West", "西入",
                   "Continue into the West round until someone reaches the target points.",
                   "誰かが目標点に達するまで西場に入る。"),
    "target_points": ("Target points", "目標点",
                      "Points someone must reach for the game to end after the last hand.",
                      "オーラス後に終了するために誰かが達すべき点数。"),
    "target_must_exceed": ("Must exceed the target", "目標点を超える必要あり",
                           "Exactly the target points is not enough to end the game.",
                           "目標点ちょうどでは終了しない。"),
    "agari_yame": ("Agari yame", "和了止め",
                   "The last dealer in first place may end the game by winning.",
                   "オーラスでトップの親は和了で終了できる。"),
    "tenpai_yame": ("Tenpai yame", "聴牌止め",
                    "... or by being tenpai at the last hand's draw.",
                    "オーラスの流局でテンパイのトップの親も終了できる。"),
    # --- final score
    "return_points": ("Return points", "返し点",
                      "Scores count from here; (return - start) x 4 goes to first (oka).",
                      "成績の基準点。（返し点 - 持ち点）× 4 がオカとしてトップへ。"),
    "uma": ("Uma", "ウマ", "Placement bonus in thousands, 1st to 4th: 20,10,-10,-20 "
            "(three values at three players: 20,0,-20).",
            "順位点（千点単位、1位から4位）：20,10,-10,-20（三人麻雀は3つ：20,0,-20）"),
    "leftover_sticks": ("Riichi sticks left at the end", "終局時の供託",
                        "Who gets the sticks still on the table.", "卓に残った供託の行き先。"),
    "split_ties": ("Split ties", "同点はウマを分ける",
                   "Tied players share their uma (off: seat order decides).",
                   "同点の人でウマを分け合う（なしなら席順）。"),
    "floating_uma_at_return": ("Floating uma: return points count", "変動ウマは返し点を含む",
                               "A player on exactly the return points counts as above them.",
                               "返し点ちょうどの人を返し点以上と数える。"),
    "final_rounding": ("Final score rounding", "最終成績の端数",
                       "How points become a score in thousands; first place takes the rest.",
                       "持ち点を千点単位の成績にする方法。トップは残りを取る。"),
    "players": ("Players", "人数",
                "4, or 3 for sanma (no 2m-8m, no chi).",
                "4人、または三人麻雀の3人（2萬-8萬・チーなし）。"),
    "nukidora": ("North as kita (nukidora)", "北抜きドラ",
                 "Three players: a North pulled out is a dora.",
                 "三人麻雀：抜いた北はドラ1枚。"),
    "north_yakuhai": ("North is a yakuhai", "北は役牌",
                      "A set of North kept in the hand is 1 han for everyone.",
                      "手の中の北の刻子は誰でも1翻。"),
    "tsumo_payment": ("Three-player tsumo", "三麻のツモ",
                      "Whether the absent seat's share of a tsumo is lost or split.",
                      "いない北家の分を払わない（ツモ損）か折半するか。"),
}

# (option, value): (English, Japanese), for each closed choice on the form
CHOICES: dict[tuple[str, str], tuple[str, str]] = {
    ("kazoe", "yakuman"): ("Yakuman", "役満"), ("kazoe", "sanbaiman"): ("Sanbaiman", "三倍満"),
    ("renhou", "off"): ("Not a yaku", "なし"), ("renhou", "mangan"): ("Mangan", "満貫"),
    ("renhou", "5han"): ("5 han yaku", "5翻役"), ("renhou", "yakuman"): ("Yakuman", "役満"),
    ("pao", "daisangen"): ("Daisangen", "大三元"), ("pao", "daisuushii"): ("Daisuushii", "大四喜"),
    ("pao", "suukantsu"): ("Suukantsu", "四槓子"),
    ("triple_ron", "abort"): ("Abortive draw", "流局（三家和）"),
    ("triple_ron", "all_paid"): ("All three paid", "3人とも和了"),
    ("triple_ron", "head_bump"): ("Nearest winner only", "頭ハネ"),
    ("renchan", "tenpai"): ("When tenpai", "テンパイ連荘"),
    ("renchan", "agari"): ("Only by winning", "和了連荘"),
    ("chombo", "reverse_mangan"): ("Reverse mangan", "満貫払い"),
    ("chombo", "points"): ("Points off the final score", "成績から減点"),
    ("chombo", "pay_each"): ("Pay each player", "各自に支払い"),
    ("length", "east"): ("East only (tonpuusen)", "東風戦"),
    ("length", "hanchan"): ("East and South (hanchan)", "半荘戦"),
    ("leftover_sticks", "first_place"): ("To first place", "トップへ"),
    ("leftover_sticks", "lost"): ("Lost", "消滅"),
    ("final_rounding", "exact"): ("Exact, in tenths", "端数なし（0.1単位）"),
    ("final_rounding", "thousand_half_up"): ("To the thousand, 500 up", "千点単位・四捨五入"),
    ("final_rounding", "thousand_half_down"): ("To the thousand, 500 down", "千点単位・五捨六入"),
    ("tsumo_payment", "tsumo_loss"): ("Tsumo loss", "ツモ損"),
    ("tsumo_payment", "north_bisection"): ("North's share split", "北家折半"),
}


def _messages() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for key, pair in PRESETS.items():
        out[f"preset.{key}.help"] = pair
    for prefix, table in (("group", GROUPS), ("opt", OPTIONS)):
        for key, (en, ja, en_help, ja_help) in table.items():
            out[f"{prefix}.{key}"] = (en, ja)
            out[f"{prefix}.{key}.help"] = (en_help, ja_help)
    for (option, value), pair in CHOICES.items():
        out[f"choice.{option}.{value}"] = pair
    return out


RULE_MESSAGES: dict[str, tuple[str, str]] = _messages()
