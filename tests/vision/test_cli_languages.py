"""`python -m vision read`, `evaluate`, `sets`, `teach`, `teach-eval` and every command's `--help`
speak the language of `--language` or the environment from vision's catalogues (vision/locale/),
Japanese and Chinese by the kiosk's words (牌, 写真/照片, 覚えさせる/学习, 再現率/召回率,
適合率/精确率, 和了牌, ポン/碰, ドラ表示牌/宝牌指示牌); English is the output as it was, and
`--json` keeps its English keys. The help is the rules core's command line's
(`scorer.cli_help`), from vision's catalogue."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import cv2
import pytest

from scorer import cli_help
from scorer.words import columns
from tests.shared import CROSS_SET, need
from vision.__main__ import main
from vision.evaluate_cli import FIGURES
from vision.problems import Problem, problem_words
from vision.reading import DetectedTile, Grouping, MeldKind, MeldReading, Reading
from vision.sets import BY_NAME, COLUMNS, models_note, table_lines
from vision.teach import Mismatch, assign_labels
from vision.words import VISION, counts, help_formatter, mismatch, summary

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "vision" / "sample_frames"
DEMO = ROOT / "vision" / "demo_frames" / "hand_12_009.jpg"  # red fives, a kan, a dora row
ORDER = "3p / 7m 666p 550s 7m 999s 5550m"  # the demo hand turned a quarter (test_teach.py)
COMMANDS = ("read", "evaluate", "sets", "compare", "teach", "teach-eval", "check-kernels")


def speak(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """The environment's language: `lang` in LANG, nothing above it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


def run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> str:
    """What the command printed: its output, then (where it fails) its errors."""
    assert main(list(argv)) == status
    captured = capsys.readouterr()
    return captured.out + (captured.err if status else "")


def lines_up(lines: list[str]) -> None:
    """Every line of a table as wide as its head, a wide character counting two columns."""
    assert len({columns(line) for line in lines}) == 1, lines


def test_the_words_the_tables_build_are_in_every_catalogue() -> None:
    keys = [*(f"metric.{k}" for k in (*FIGURES, "located", "located_right", "within_reach")),
            *(f"sets.column.{name}" for name, _, _ in COLUMNS), "evaluate.ours", "evaluate.peer"]
    assert [k for k in keys if not VISION.has(k)] == []
    for lang in ("ja", "zh-Hans"):
        assert VISION.translations(lang).pgettext("metric.recall", "recall") == {
            "ja": "再現率", "zh-Hans": "召回率"}[lang]


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_help_speaks_the_environment_s_language(
        command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """No help text reads as a key, in any language; argparse's own words follow too."""
    argv = [command, "--help"] if command else ["--help"]
    for lang, words in (("C.UTF-8", ("usage: ", "options:", "show this help")),
                        ("ja_JP.UTF-8", ("使い方：", "オプション:", "このヘルプを表示")),
                        ("zh_CN.UTF-8", ("用法：", "选项:", "显示此帮助信息"))):
        speak(monkeypatch, lang)
        with pytest.raises(SystemExit):
            main(argv)
        text = capsys.readouterr().out
        assert all(word in text for word in words), text
        assert "help." not in text and "usage:" not in text[len("usage: "):]


def test_the_help_of_sets_and_teach_in_japanese_and_chinese(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    speak(monkeypatch, "ja_JP.UTF-8")
    with pytest.raises(SystemExit):
        main(["sets", "--help"])
    text = capsys.readouterr().out
    assert "このセットだけを測る（複数指定可）" in text and "1ソース除外" in text
    assert "measure only this set" not in text and "leave-one-source-out" not in text
    speak(monkeypatch, "C")  # --language before the command or after it wins over the environment
    for argv in (["--language", "zh-Hans", "teach", "--help"],
                 ["teach", "--help", "--language=zh"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = capsys.readouterr().out
        assert "按顺序摆放的牌的照片" in text and "保存 taught_tiles.npz 的目录" in text
        assert "photos of the tiles laid out in order" not in text


def test_the_sets_table_in_japanese_lines_up_with_its_wider_heads() -> None:
    leo = BY_NAME["leo-miura-riichi-webcam"]
    notes = {lang: models_note(leo, [{"sources": [leo.name]}], None, lang)
             for lang in ("en", "ja", "zh-Hans")}
    assert notes == {"en": "trained on", "ja": "学習に使用", "zh-Hans": "用于训练"}
    ours = {"images": 67, "recall": 0.95, "precision": 0.5588, "exact_images": 0.0149,
            "labelled_right_images": 0.7015}
    lines = table_lines([{"set": leo.name, "models": notes["ja"], "ours": ours}], "ja")
    assert lines[0].split() == ["写真セット", "モデル", "写真", "再現率", "適合率", "完全一致",
                                "ラベル正解", "比較再現率", "比較完全一致"]
    lines_up(lines)
    assert columns(lines[2][:lines[2].index("0.950") + 5]) == columns(
        lines[0][:lines[0].index("再現率") + 3])  # the figure under its head's last column


def test_sets_on_real_photos_in_japanese_and_chinese(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two photos of a set the models learned from, read again by the classifiers that never
    saw it, and two of a set no model saw."""
    photos = need(*CROSS_SET).parents[1]
    need("photos", "camerash-web-crops", "manifest.jsonl")
    argv = ["sets", str(photos), "--limit", "2", "--only", "leo-miura-riichi-webcam",
            "--only", "camerash-web-crops"]
    speak(monkeypatch, "ja_JP.UTF-8")
    text = run(capsys, *argv)
    table = text.splitlines()
    assert table[0].split()[:5] == ["写真セット", "モデル", "写真", "再現率", "適合率"]
    assert "学習に使用" in table[2] and "学習に未使用" in table[4]
    assert "除外して学習：left-out" in table[3]
    assert "recall" not in text and "prec." not in text and "trained on" not in text
    lines_up(table)
    speak(monkeypatch, "en_GB.UTF-8")
    text = run(capsys, *argv, "--language", "zh-Hans")
    assert text.splitlines()[0].split()[:5] == ["照片集", "模型", "照片", "召回率", "精确率"]
    assert "用于训练" in text and "从未用于训练" in text and "recall" not in text
    assert "不含此集训练：left-out" in text
    data = json.loads(run(capsys, *argv, "--language", "ja", "--json"))  # English, as it was
    assert [row["models"] for row in data["sets"]] == [
        "trained on", "without it: left-out", "never trained on"]
    assert {"recall", "precision", "exact_images"} <= data["sets"][0]["ours"].keys()


def test_evaluate_on_two_photos_in_japanese_and_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two sample frames labelled by their tiles, each its own split."""
    expected = json.loads((SAMPLES / "expected.json").read_text())
    lines = []
    for name, split in (("hand_12_000.jpg", "a"), ("hand_12_019.jpg", "b")):
        shutil.copy(SAMPLES / name, tmp_path / name)
        g = expected[name]
        tiles = [*g["concealed"], g["winning"], *(t for m in g["melds"] for t in m["tiles"]),
                 *g["dora"]]
        lines.append(json.dumps({"image": name, "split": split,
                                 "tiles": [{"label": t} for t in tiles]}))
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("\n".join(lines) + "\n")
    speak(monkeypatch, "C")
    english = run(capsys, "evaluate", str(manifest)).splitlines()
    assert english[0] == f"== split a: 1 images of {manifest} =="
    assert english[3].split() == ["precision", "1.0"] and english[-1].startswith("median_latency")
    text = run(capsys, "evaluate", str(manifest), "--language", "ja")
    assert f"== 分割 a：{manifest}の画像1枚 ==" in text and "== 全2枚の画像 ==" in text
    assert "適合率" in text and "再現率" in text and "完全一致の画像" in text and "本ツール" in text
    assert "precision" not in text and "recall" not in text and "exact_images" not in text
    lines_up(text.splitlines()[1:10])
    monkeypatch.setenv("LANGUAGE", "zh_CN:en")
    text = run(capsys, "evaluate", str(manifest))
    assert "== 全部2张图片 ==" in text and "精确率" in text and "召回率" in text
    assert "本工具" in text and "precision" not in text
    data = json.loads(run(capsys, "evaluate", str(manifest), "--json"))
    assert data["images"] == 2 and data["recall"] == 1.0 and "per_split" in data


def test_teach_in_japanese_and_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "turned.png"
    cv2.imwrite(str(photo), cv2.rotate(cv2.imread(str(DEMO)), cv2.ROTATE_90_CLOCKWISE))
    speak(monkeypatch, "ja_JP.UTF-8")
    text = run(capsys, "teach", str(photo), "--order", ORDER, "--out", str(tmp_path / "a"))
    assert f"写真1枚から8種類の牌を覚えました：{tmp_path / 'a' / 'taught_tiles.npz'}" in text
    assert "taught" not in text.replace("taught_tiles", "")
    text = run(capsys, "teach", str(photo), "--order", "3p / 7m", "--out", str(tmp_path / "b"),
               status=1)
    assert "  問題：16枚見つかりました（2枚のはず）" in text  # the layout's, in the kiosk's words
    assert "  問題：2列目（7m）に15枚（1枚のはず）" in text
    assert "found" not in text and "expected" not in text
    assert f"エラー：{photo}は指定の並び順と合いません" in text
    text = run(capsys, "teach", str(photo), "--order", "3p / 7m", "--out", str(tmp_path / "b"),
               "--language", "zh-Hans", status=1)
    assert "  问题：找到16张牌，应为2张" in text
    assert "  问题：第2行（7m）找到15张牌，应为1张" in text
    speak(monkeypatch, "C")
    text = run(capsys, "teach", str(photo), "--order", "3p / 7m", "--out", str(tmp_path / "b"),
               status=1)  # English as it was
    assert "  problem: 16 tiles found, 2 expected\n  problem: row 2 (7m): 15 tiles found, " \
        "1 expected\n" in text
    text = run(capsys, "teach", str(photo), "--order", ORDER, "--out", str(tmp_path / "c"),
               "--language", "zh-Hans")
    assert "从1张照片学会了8种牌：" in text and "taught 8" not in text


def test_a_teaching_photo_s_mismatches_in_every_language() -> None:
    """Each count that differs from the order, worded from the catalogue in the kiosk's words;
    its English is the layout's `problems` (the kiosk's API and the JSON), as it was."""
    one_row = assign_labels([(10 + 35 * k, 100, 40 + 35 * k, 140) for k in range(9)],
                            [("1m", "2m", "3m", "4m", "5m"), ("6p", "7p", "8p", "9p")])
    short = assign_labels([(0, 0, 10, 20), (12, 0, 22, 20)], [("1m", "2m", "3m")])
    rows = Mismatch("rows", 3, 2)
    assert one_row.mismatches == (Mismatch("rows", 1, 2),)
    assert short.mismatches == (Mismatch("tiles", 2, 3), Mismatch("row", 2, 3, 1, "1m..3m"))
    said = {lang: [mismatch(m, lang) for m in (*short.mismatches, *one_row.mismatches, rows)]
            for lang in ("en", "ja", "zh-Hans")}
    assert said["en"] == [*short.problems, *one_row.problems, str(rows)] == [
        "2 tiles found, 3 expected", "row 1 (1m..3m): 2 tiles found, 3 expected",
        "1 row of tiles found, 2 expected", "3 rows of tiles found, 2 expected"]
    assert said["ja"] == ["2枚見つかりました（3枚のはず）", "1列目（1m..3m）に2枚（3枚のはず）",
                          "牌が1列に並んでいます（2列のはず）",
                          "牌が3列に並んでいます（2列のはず）"]
    assert said["zh-Hans"] == ["找到2张牌，应为3张", "第1行（1m..3m）找到2张牌，应为3张",
                               "牌排成了1行，应为2行", "牌排成了3行，应为2行"]
    assert short.to_json()["problems"] == said["en"][:2]


def _tile(label: str) -> DetectedTile:
    return DetectedTile(label, (0.0, 0.0, 10.0, 10.0), 0.9)


#: A hand with every kind of meld, a winning tile, two dora indicators and a tile apart.
EVERY_MELD = Reading(
    tuple(map(_tile, ("1m 1m 2s 3s 4s 3p 2p 3p 4p 5z 5z 5z 7s 7s 7s 7s 6z 6z 6z 6z 9m 9m 9m 9m "
                      "1m 8s 2m").split())),
    Grouping(concealed=(0, 1, 2, 3, 4), winning=5, dora=(24, 25), unassigned=(26,),
             melds=(MeldReading(MeldKind.CHI, (6, 7, 8), 6),
                    MeldReading(MeldKind.PON, (9, 10, 11), 9),
                    MeldReading(MeldKind.MINKAN, (12, 13, 14, 15), 12),
                    MeldReading(MeldKind.ANKAN, (16, 17, 18, 19)),
                    MeldReading(MeldKind.KAKAN, (20, 21, 22, 23), 20))))


def test_a_reading_s_summary_in_every_language() -> None:
    """The English is the compact line as it was (check-kernels' JSON keeps it); Japanese and
    Chinese say the winning tile, each meld and the dora in the kiosk's words, labels as read."""
    said = {lang: summary(EVERY_MELD, lang).split(" | ") for lang in ("en", "ja", "zh-Hans")}
    melds = ["[2p 3p 4p]", "[5z 5z 5z]", "[7s 7s 7s 7s]", "[6z 6z 6z 6z]", "[9m 9m 9m 9m]"]
    assert " | ".join(said["en"]) == (
        "1m 1m 2s 3s 4s | win 3p | chi[2p 3p 4p] | pon[5z 5z 5z] | minkan[7s 7s 7s 7s] "
        "| ankan[6z 6z 6z 6z] | kakan[9m 9m 9m 9m] | dora 1m 8s")
    assert said["ja"] == ["1m 1m 2s 3s 4s", "和了牌 3p",
                          *(k + m for k, m in zip(("チー", "ポン", "明槓", "暗槓", "加槓"), melds,
                                                  strict=True)), "ドラ表示牌 1m 8s"]
    assert said["zh-Hans"] == ["1m 1m 2s 3s 4s", "和了牌 3p",
                               *(k + m for k, m in zip(("吃", "碰", "明杠", "暗杠", "加杠"), melds,
                                                       strict=True)), "宝牌指示牌 1m 8s"]
    assert summary(Reading(())) == "-"
    assert counts(EVERY_MELD) == ("27 tiles read: 21 in the hand (each kan counted as 3), "
                                  "2 dora indicators, 1 apart")
    assert counts(EVERY_MELD, "ja") == ("27枚読み取り：手牌21枚（槓は3枚と数える）、ドラ表示牌2枚、"
                                        "離れた牌1枚")


def test_read_in_japanese_and_chinese(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo hand (a pon, a kan, a dora indicator): its line in the language, the English as
    it was, the JSON the same in any language."""
    speak(monkeypatch, "C")
    english = run(capsys, "read", str(DEMO)).splitlines()
    assert re.fullmatch(r"16 tiles read: 14 in the hand \(each kan counted as 3\), "
                        r"1 dora indicator: [0-9mpsz ]+ \| win \w\w \| pon\[[^]]+\] "
                        r"\| minkan\[[^]]+\] \| dora \w\w", english[0]), english[0]
    data = run(capsys, "read", str(DEMO), "--json")
    for lang, words in (("ja", ("手牌14枚", "：", " | 和了牌 ", " | ポン[", " | 明槓[",
                                " | ドラ表示牌 ")),
                        ("zh-Hans", ("手牌14张", "：", " | 和了牌 ", " | 碰[", " | 明杠[",
                                     " | 宝牌指示牌 "))):
        lines = run(capsys, "read", str(DEMO), "--language", lang).splitlines()
        assert all(word in lines[0] for word in words), lines[0]
        assert not re.search(r"win|pon|kan|dora|tiles|hand", lines[0]), lines[0]
        assert [line.split()[:4] for line in lines[1:]] == [  # each tile's label and figures
            line.split()[:4] for line in english[1:]]
        assert run(capsys, "read", str(DEMO), "--json", "--language", lang) == data
    assert json.loads(data)["melds"][0]["kind"] in ("pon", "minkan")


def test_read_s_problems_in_japanese_and_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo hand's lower part cut away (7 tiles in the hand), and a real webcam photo with a
    wall in view (tiles stacked and set aside, five of a tile): each problem in the language,
    the English as it was and the JSON's the English in any language."""
    frame = cv2.imread(str(DEMO))
    frame[250:, :] = (30, 30, 30)
    cut = tmp_path / "cut.png"
    cv2.imwrite(str(cut), frame)
    speak(monkeypatch, "ja_JP.UTF-8")
    lines = run(capsys, "read", str(cut)).splitlines()
    assert "問題：手牌7枚（14枚のはず、槓は3枚と数える）" in lines
    lines = run(capsys, "read", str(cut), "--language", "zh").splitlines()
    assert "问题：手牌7张（应为14张，杠按3张计）" in lines
    photo = need("photos", "leo-miura-riichi-webcam", "images",
                 "Screenshot-2025-09-20-00-34-15.jpg")
    data = json.loads(run(capsys, "read", str(photo), "--json"))
    english, problems = data["problems"], [Problem.from_json(p) for p in data["problem_keys"]]
    assert len(english) >= 3, english  # a wall beside the hand: stacked, set aside, ...
    assert [p.english() for p in problems] == english
    speak(monkeypatch, "C")
    lines = run(capsys, "read", str(photo)).splitlines()
    assert [line for line in lines if line.startswith("problem: ")] == [
        f"problem: {p}" for p in english]
    for lang, said in (("ja", "問題："), ("zh-Hans", "问题：")):
        lines = run(capsys, "read", str(photo), "--language", lang).splitlines()
        worded = [line.removeprefix(said) for line in lines if line.startswith(said)]
        assert worded == [problem_words(p, lang) for p in problems]
        assert not any(re.search(r"[a-z]{3,}", line) for line in worded), worded
        assert json.loads(run(capsys, "read", str(photo), "--json", "--language", lang))[
            "problems"] == english


def test_teach_s_order_it_cannot_read_in_japanese_and_chinese(
        capsys: pytest.CaptureFixture[str]) -> None:
    """An --order that is no tiles: why, in the language (the tile reader's own words as
    python -m scorer keeps them), before any photo is read."""
    args = ("teach", str(DEMO), "--out", "unused", "--order")
    text = run(capsys, *args, "12x", "--language", "ja", status=2)
    assert text.startswith("エラー：指定の並び順を読めません：'12x': cannot read '12x'")
    text = run(capsys, *args, " / ", "--language", "zh-Hans", status=2)
    assert text == "错误：指定的顺序 ' / ' 中没有牌\n"
    text = run(capsys, *args, "12x", status=2)
    assert text.startswith("error: cannot read the expected order: '12x': cannot read '12x'")


def test_vision_s_help_is_the_rules_core_s_formatter_with_vision_s_words() -> None:
    """One formatter for both command lines (scorer.cli_help): vision's only names its words."""
    import vision.words

    formatter = help_formatter("ja")("python -m vision")
    assert type(formatter) is cli_help.HelpWords and formatter.words is VISION
    assert formatter._t("usage") == "使い方："
    assert not hasattr(vision.words, "HelpWords") and not hasattr(vision.words, "language_in")


def test_teach_eval_in_japanese_and_chinese(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo hand as it lies and turned a quarter, labelled where the reader reads them
    (rightly: test_model.py): taught from one, read on the other."""
    from vision.recogniser import Recogniser

    recogniser = Recogniser.load()
    frame = cv2.imread(str(DEMO))
    lines = []
    for name, image in (("as_is.png", frame), ("turned.png", cv2.rotate(frame, 0))):
        cv2.imwrite(str(tmp_path / name), image)
        tiles = [{"label": t.label, "box": list(t.box)} for t in recogniser.read(image).tiles]
        h, w = image.shape[:2]
        lines.append(json.dumps({"image": name, "width": w, "height": h, "tiles": tiles}))
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("\n".join(lines) + "\n")
    speak(monkeypatch, "ja_JP.UTF-8")
    text = run(capsys, "teach-eval", str(manifest), "--photos", "1")
    assert "写真1枚（牌16枚、8種類中8種類）から" in text and "残りの写真1枚で読み取り" in text
    assert "IoU 0.5 学習なし" in text and "IoU 0.5 学習あり" in text
    assert "再現率" in text and "候補に入った率" in text and "取り違え・学習あり" in text
    assert "recall" not in text and "within_reach" not in text and "confusions" not in text
    lines_up(text.splitlines()[4:9])
    text = run(capsys, "teach-eval", str(manifest), "--photos", "1", "--language", "zh")
    assert "IoU 0.5 未学习" in text and "召回率" in text and "候选覆盖率" in text
    assert "recall" not in text


def test_the_words_module_s_examples_run() -> None:
    import doctest

    import vision.words

    result = doctest.testmod(vision.words)
    assert result.attempted > 0 and result.failed == 0
