"""The words of the API's refusals for a page in another language (issue 18, item 6): each
``err.<code>`` is what `kiosk.errors` answers a Japanese session for a refusal raised with that
`code` (English sessions keep the API's own, more detailed English). Merged into the message
catalogue (`kiosk.i18n.MESSAGES`)."""

from __future__ import annotations

ERROR_MESSAGES: dict[str, tuple[str, str]] = {
    # Importing a game record (the games page).
    "err.import_event": ("cannot import the record: event {event} is not valid",
                         "棋譜を取り込めません：イベント{event}が正しくありません"),
    "err.import_field": ("cannot import the record: event {event}, field '{field}' is not valid",
                         "棋譜を取り込めません：イベント{event}の「{field}」が正しくありません"),
    "err.import_unreadable": ("cannot import the record: not a game record this kiosk reads",
                              "棋譜を取り込めません：このキオスクが読める対局記録ではありません"),
    "err.import_empty": ("the game record is empty", "棋譜が空です"),
    "err.import_too_large": ("the game record is too large (at most {kb} KB)",
                             "棋譜が大きすぎます（最大{kb} KB）"),
    # A change the game's rules refuse.
    "err.riichi_twice": ("{who} has already declared riichi this hand",
                         "{who}さんはこの局ですでにリーチしています"),
    "err.riichi_points": ("{who} has {points} points; riichi needs {stick}",
                          "{who}さんは{points}点です。リーチには{stick}点が必要です"),
    "err.game_over": ("the game is over; start a new game",
                      "対局は終了しています。新しい対局を始めてください"),
    "err.nothing_to_undo": ("nothing to undo: the game has only started",
                            "取り消せるものはありません（対局が始まったばかりです）"),
    "err.nothing_to_redo": ("nothing to redo", "やり直せるものはありません"),
    "err.illegal_event": ("this cannot be recorded now", "今の局面ではこの操作を記録できません"),
    "err.no_game": ("no game has been started", "対局が始まっていません"),
    "err.changed_since": ("the table changed since: nothing was undone",
                          "その後に別の操作が記録されたため、取り消しませんでした"),
    # Quick mode (han and fu, or the points).
    "err.quick_points": ("no hand is worth {points} for a {who} {how}",
                         "{who}の{how}で{points}点になる手はありません"),
    "err.dealer": ("dealer", "親"), "err.non_dealer": ("non-dealer", "子"),
    "err.quick_no_han": ("a winning hand has at least 1 han", "和了には1翻以上が必要です"),
    "err.quick_fu": ("{fu} is not a fu value", "{fu}符という符はありません"),
    "err.quick_impossible": ("{han} han {fu} fu {how} cannot happen",
                             "{han}翻{fu}符の{how}はありえません"),
    "err.quick_min_han": ("these rules need at least {least} han to win",
                          "このルールでは和了に{least}翻以上が必要です"),
    # The store, the PIN.
    "err.store_full": ("the kiosk's disk is full: the change was not recorded",
                       "キオスクのディスクがいっぱいです。記録されませんでした"),
    "err.store_refused": ("the event store refused the change",
                          "記録の保存が拒否されました。もう一度お試しください"),
    "err.wrong_pin": ("wrong PIN", "PINが違います"),
    "err.pin_wait": ("too many wrong PINs; try again in {wait} s",
                     "PINの誤りが多すぎます。{wait}秒後にもう一度お試しください"),
}
