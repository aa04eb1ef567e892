"""The words of the rest of the API's refusals for a page in another language (issue 18, item 6):
photos and the camera, teaching the tiles, the games list and imports, the new-game form's rule
options, the PIN, device tokens and the request itself. As kiosk/messages_errors.py (into whose
`ERROR_MESSAGES` these are merged): each ``err.<code>`` is what `kiosk.errors` answers a Japanese
session for a refusal raised with that `code`; an English session keeps the API's English.

tests/kiosk/test_refusal_codes.py finds every refusal the kiosk raises and checks it has a code
here (or in kiosk/messages_errors.py), with both texts and words for every blank.
"""

from __future__ import annotations

REFUSAL_MESSAGES: dict[str, tuple[str, str]] = {
    # A photo sent or taken (the win page's Upload and Capture, the teach page).
    "err.photo_missing": ("send the photo as an image file",
                          "写真が届いていません。画像ファイルを送ってください"),
    "err.photo_empty": ("the photo is empty", "写真のファイルが空です"),
    "err.photo_unreadable": ("the photo cannot be read: send a JPEG, PNG, BMP or WebP image",
                             "写真を読み込めません。JPEG・PNG・BMP・WebPの画像を送ってください"),
    "err.photo_too_large": ("the photo is {width} x {height} pixels; at most {most} megapixels",
                            "写真が大きすぎます（{width}×{height}ピクセル、最大{most}メガピクセル）"),
    "err.photo_too_small": ("the photo is too small ({width} x {height} pixels)",
                            "写真が小さすぎます（{width}×{height}ピクセル）"),
    "err.upload_too_large": ("the upload is too large (at most {mb} MB)",
                             "送ったファイルが大きすぎます（最大{mb} MB）"),
    "err.camera_no_photo": ("no photo from the camera",
                            "カメラで撮影できませんでした。カメラの接続を確認するか、写真を送ってください"),
    "err.camera_no_picture": ("no camera picture yet", "カメラの映像がまだありません"),
    "err.capture_gone": ("the photo has expired; take it again",
                         "写真の保存期間が過ぎました。もう一度撮影してください"),
    "err.tile_label": ("{field}: {got} is not a tile", "{field}の{got}は牌の名前ではありません"),
    "err.capture_box": ("{field}: expected a box [x1, y1, x2, y2]",
                        "{field}は枠の座標 [x1, y1, x2, y2] にしてください"),
    "err.capture_box_outside": ("{field}: the box is outside the {width} x {height} photo",
                                "{field}の枠が写真（{width}×{height}）の外にあります"),
    # Teaching the recogniser a table's own tiles (the teach page).
    "err.teach_unavailable": ("nothing to teach: tile recognition is not available",
                              "牌の読み取りが使えないため、牌を覚えさせることができません"),
    "err.teach_rows": ("rows: {part} is not a row of the order (0-{last})",
                       "並べ順に行{part}はありません（0〜{last}）"),
    "err.teach_row_twice": ("rows: row {row} is given twice", "行{row}が二度指定されています"),
    "err.teach_photo_gone": ("the teaching photo has expired; take it again",
                             "この写真は保存期間が過ぎました。もう一度撮影してください"),
    "err.teach_shot_gone": ("photo {n} has expired; take it again",
                            "{n}枚目の写真は保存期間が過ぎました。もう一度撮影してください"),
    "err.teach_shots": ("choose the photos to teach from", "覚えさせる写真を選んでください"),
    "err.teach_shots_many": ("at most {most} photos at once",
                             "一度に覚えさせられる写真は{most}枚までです"),
    "err.teach_shot_id": ("photo {n}: expected the id of a teaching photo",
                          "{n}枚目の写真のIDがありません"),
    "err.teach_shot_twice": ("photo {n} is given twice", "{n}枚目の写真が二度指定されています"),
    "err.teach_labels": ("photo {n}: {got} names for its {tiles} tiles",
                         "{n}枚目の写真：牌{tiles}枚に対して名前が{got}個です"),
    "err.teach_no_labels": ("no tile has a name to learn",
                            "名前の付いた牌が1枚もないため、覚えさせることができません"),
    # The games list: resuming, importing, starting a game.
    "err.game_missing": ("no game {id}",
                         "対局「{id}」が見つかりません（削除された可能性があります）"),
    "err.game_unreplayable": ("game {id} cannot be replayed",
                              "対局「{id}」の記録を再生できません（記録が壊れています）"),
    "err.import_many": ("{n} files: one record at a time",
                        "ファイルが{n}個あります。棋譜は1つずつ取り込んでください"),
    "err.game_start": ("cannot start the game", "対局を始められません。設定を確認してください"),
    "err.game_start_field": ("cannot start the game: {field} is not valid",
                             "対局を始められません：「{field}」の値が正しくありません"),
    # The new-game form's rules: a preset, an option (its name worded, kiosk/messages_rules.py).
    "err.unknown_preset": ("unknown rules {preset} (known: {known})",
                           "「{preset}」というルールはありません（{known}から選んでください）"),
    "err.rule_unknown": ("unknown rule option(s): {options}",
                         "不明なルール項目があります：{options}"),
    "err.rule_bool": ("{option}: expected on or off, got {got}",
                      "「{option}」はありかなしで指定してください（送られた値：{got}）"),
    "err.rule_number": ("{option}: expected a whole number from {low} to {high}, got {got}",
                        "「{option}」は{low}〜{high}の整数にしてください（送られた値：{got}）"),
    "err.rule_choice": ("{option}: {got} is not one of {choices}",
                        "「{option}」に{got}は選べません（{choices}から選んでください）"),
    "err.rule_list": ("{option}: expected a list of at most {most} names",
                      "「{option}」は{most}個までの名前で指定してください"),
    "err.rule_text": ("{option}: expected text of at most {most} printable characters",
                      "「{option}」は表示できる{most}文字までの文字列にしてください"),
    "err.uma_text": ("uma: expected text like '20,10,-10,-20'",
                     "ウマは「20,10,-10,-20」のように入力してください"),
    "err.uma_numbers": ("uma: {got} is not whole numbers", "ウマの「{got}」が整数になっていません"),
    "err.uma_count": ("uma: needs four values (three at a three-player table), got {count}",
                      "ウマは4人分（三人麻雀は3人分）の値が必要です（{count}個あります）"),
    "err.uma_players": ("uma: {players} players need {players} values, got {count}",
                        "ウマは{players}人分の値が必要です（{count}個あります）"),
    "err.uma_floating": ("uma: the floating part {part} is not 'N:a,b,c,d'",
                         "変動ウマの「{part}」は「N:a,b,c,d」の形にしてください"
                         "（N：返し点以上の人数、1〜4）"),
    # The PIN, device tokens, the page's own token, the kiosk's name.
    "err.pin_needed": ("this change needs the table PIN (shown on the kiosk's screen)",
                       "変更するには卓のPINが必要です（卓の画面に表示されています）"),
    "err.csrf": ("the page's token is missing or wrong: reload the page",
                 "ページの有効期限が切れました。ページを再読み込みしてください"),
    "err.token_unknown": ("unknown device token",
                          "端末トークンが無効です（取り消されたか、期限が切れています）"),
    "err.token_missing": ("no device token {id}", "端末トークン「{id}」は見つかりません"),
    "err.tokens_kiosk_only": ("device tokens are listed and revoked on the kiosk's own screen",
                              "端末トークンの発行・確認・取り消しは卓の画面でのみできます"),
    "err.host_unknown": ("{host} is not a name of this kiosk",
                         "{host}はこのキオスクの名前ではありません。キオスクのアドレスで開いてください"),
    # The new-game form's member picker, where a parlor is configured (kiosk/api/members.py).
    "err.parlor_none": ("no parlor is configured: type the players' names",
                        "店舗サーバーが設定されていません。プレイヤー名を入力してください"),
    "err.parlor_unreachable": ("the parlor cannot be reached: type the player's name (a member "
                               "adds #number)",
                               "店舗サーバーに接続できません。名前を入力してください"
                               "（会員は「#会員番号」を付けてください）"),
    "err.parlor_refused": ("the parlor refused this table's token: ask the parlor's staff",
                           "店舗サーバーがこの卓のトークンを受け付けません。スタッフに連絡してください"),
    "err.member_search_refused": ("the parlor refused the search",
                                  "店舗サーバーが検索を受け付けませんでした"),
    "err.member_query": ("type 1-{most} characters of a name or a member number",
                         "名前か会員番号を1〜{most}文字で入力してください"),
    "err.member_card_unseen": ("no member card seen: hold the card's QR code in front of the "
                               "camera",
                               "会員カードが見つかりません。カードのQRコードをカメラに向けて"
                               "ください"),
    "err.member_card_foreign": ("that QR code is not a member card ({got})",
                                "このQRコードは会員カードではありません（{got}）"),
    "err.member_missing": ("the parlor has no member {number}",
                           "会員番号{number}の会員は店舗に登録されていません"),
    # What the web server itself refuses (kiosk/errors.py's handlers).
    "err.not_found": ("not found", "ページが見つかりません"),
    "err.method_not_allowed": ("this cannot be done here", "この操作はここではできません"),
    "err.live_pages": ("too many live pages open from this address; close one",
                       "この端末で開いている自動更新のページが多すぎます。どれかを閉じてください"),
    "err.camera_views": ("too many camera views open from this address; close one",
                         "この端末で開いているカメラの映像が多すぎます。どれかを閉じてください"),
    "err.http_error": ("the request was refused (HTTP {status})",
                       "リクエストを処理できませんでした（HTTP {status}）"),
    "err.internal": ("internal error: {name}", "キオスク内部でエラーが起きました（{name}）"),
}
