"""A seeded generator of random legal winning hands and situations, for differential testing.

It leans towards the rare: one-suit and honour-heavy hands, terminal triplets, kans of every
kind, seven pairs and thirteen orphans, so that every yaku appears many times in 100,000 hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import CalledFrom, Hand, Meld, MeldKind
from scorer.tiles import RED_FIVE_KINDS, TILES, Tile

TERMINALS_HONOURS = [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]
GREEN = [19, 20, 21, 23, 25, 32]  # 2s 3s 4s 6s 8s Hatsu


def _palette(rng: random.Random) -> list[int]:
    """Which kinds this hand may use: biased towards flushes, honours and terminals."""
    roll = rng.random()
    if roll < 0.08:
        suit = rng.randrange(3)
        return list(range(suit * 9, suit * 9 + 9))  # chinitsu / chuuren
    if roll < 0.18:
        suit = rng.randrange(3)
        return list(range(suit * 9, suit * 9 + 9)) + list(range(27, 34))  # honitsu
    if roll < 0.22:
        return list(range(27, 34))  # tsuuiisou and friends
    if roll < 0.26:
        return TERMINALS_HONOURS
    if roll < 0.28:
        return GREEN
    if roll < 0.30:
        return [0, 8, 9, 17, 18, 26]  # chinroutou
    if roll < 0.38:
        return [k for k in range(27) if k % 9 not in (0, 8)]  # tanyao
    return list(range(34))


class _Builder:
    def __init__(self, rng: random.Random, palette: list[int]):
        self.rng = rng
        self.palette = palette
        self.used = [0] * 34
        self.kan_rate = 0.07

    def take(self, kinds: list[int]) -> bool:
        need: dict[int, int] = {}
        for k in kinds:
            need[k] = need.get(k, 0) + 1
        if any(self.used[k] + n > 4 for k, n in need.items()):
            return False
        for k, n in need.items():
            self.used[k] += n
        return True

    def group(self) -> tuple[str, list[int]] | None:
        rng = self.rng
        runs = [k for k in self.palette if k < 27 and k % 9 <= 6 and k + 2 in self.palette]
        for _ in range(30):
            roll = rng.random()
            if roll < 0.65 and runs:
                base = rng.choice(runs)
                kinds, shape = [base, base + 1, base + 2], "seq"
            elif roll < 1 - self.kan_rate:
                kinds, shape = [rng.choice(self.palette)] * 3, "tri"
            else:
                kinds, shape = [rng.choice(self.palette)] * 4, "kan"
            if self.take(kinds):
                return shape, kinds
        return None


def _patterned(rng: random.Random, b: _Builder) -> list[tuple[str, list[int]]]:
    """Some groups fixed in advance so that rare sequence yaku come up often."""
    roll = rng.random()
    suit = 9 * rng.randrange(3)
    if roll < 0.04:  # ittsu
        starts = [suit, suit + 3, suit + 6]
    elif roll < 0.08:  # sanshoku
        n = rng.randrange(7)
        starts = [n, 9 + n, 18 + n]
    elif roll < 0.11:  # junchan / chanta: terminal sequences
        starts = [rng.choice([0, 6, 9, 15, 18, 24]) for _ in range(2)]
    elif roll < 0.13:  # ryanpeikou / iipeikou
        a, c = rng.randrange(27), rng.randrange(27)
        starts = [x for x in (a, a, c, c) if x % 9 <= 6]
    else:
        return []
    groups = []
    for start in starts:
        kinds = [start, start + 1, start + 2]
        if b.take(kinds):
            groups.append(("seq", kinds))
    return groups


def _chuuren(rng: random.Random) -> Hand:
    suit = 9 * rng.randrange(3)
    kinds = [suit] * 3 + [suit + i for i in range(1, 8)] + [suit + 8] * 3
    return _finish(rng, kinds + [suit + rng.randrange(9)], [])


def _standard(rng: random.Random) -> Hand | None:
    b = _Builder(rng, _palette(rng))
    groups = _patterned(rng, b)
    if groups:
        b.palette = list(range(34))
    elif rng.random() < 0.02:
        b.kan_rate = 1.0  # sankantsu, suukantsu
    pair_kind = rng.choice(b.palette)
    if not b.take([pair_kind, pair_kind]):
        return None
    groups += [b.group() for _ in range(4 - len(groups))]  # type: ignore[misc]
    if any(g is None for g in groups):
        return None
    call_rate = rng.choice([0.0, 0.0, 0.25, 0.5])
    concealed: list[int] = [pair_kind, pair_kind]
    melds: list[tuple[MeldKind, list[int]]] = []
    for shape, kinds in groups:  # type: ignore[misc]
        if shape == "kan":
            kind = rng.choice([MeldKind.ANKAN, MeldKind.MINKAN, MeldKind.KAKAN])
            if kind is not MeldKind.ANKAN and rng.random() > call_rate + 0.2:
                kind = MeldKind.ANKAN
            melds.append((kind, kinds))
        elif rng.random() < call_rate:
            melds.append((MeldKind.CHI if shape == "seq" else MeldKind.PON, kinds))
        else:
            concealed += kinds
    return _finish(rng, concealed, melds)


def _finish(rng: random.Random, concealed: list[int],
            melds: list[tuple[MeldKind, list[int]]]) -> Hand:
    tiles = [TILES[k] for k in concealed]
    meld_tiles = [[TILES[k] for k in kinds] for _, kinds in melds]
    # One red five per suit, on a random copy of that five, when the hand has one.
    for red in RED_FIVE_KINDS:
        spots = [(None, i) for i, t in enumerate(tiles) if t.kind == red]
        spots += [(m, i) for m, ts in enumerate(meld_tiles) for i, t in enumerate(ts)
                  if t.kind == red]
        # A set with red fives has one red copy of each five: four fives include it.
        if spots and (rng.random() < 0.6 or len(spots) == 4):
            m, i = rng.choice(spots)
            if m is None:
                tiles[i] = Tile(red, True)
            else:
                meld_tiles[m][i] = Tile(red, True)
    sources = list(CalledFrom)
    built = []
    for (kind, _), ts in zip(melds, meld_tiles, strict=True):
        if kind is MeldKind.ANKAN:
            built.append(Meld(kind, tuple(ts)))
        else:
            source = CalledFrom.KAMICHA if kind is MeldKind.CHI else rng.choice(sources)
            built.append(Meld(kind, tuple(ts), rng.choice(ts), source))
    rng.shuffle(tiles)
    return Hand(tuple(sorted(tiles)), tuple(built), rng.choice(tiles))


def _chiitoitsu(rng: random.Random) -> Hand:
    palette = _palette(rng)
    if len(palette) < 7:
        palette = list(range(34))
    kinds = rng.sample(palette, 7)
    return _finish(rng, [k for k in kinds for _ in range(2)], [])


def _kokushi(rng: random.Random) -> Hand:
    return _finish(rng, TERMINALS_HONOURS + [rng.choice(TERMINALS_HONOURS)], [])


def random_hand(rng: random.Random) -> Hand:
    roll = rng.random()
    if roll < 0.01:
        return _kokushi(rng)
    if roll < 0.06:
        return _chiitoitsu(rng)
    if roll < 0.07:
        return _chuuren(rng)
    while True:
        hand = _standard(rng)
        if hand is not None:
            return hand


def random_context(rng: random.Random, hand: Hand) -> WinContext:
    closed = hand.is_closed
    has_kan = any(m.is_kan for m in hand.melds)
    tsumo = rng.random() < 0.45
    riichi = Riichi.NONE
    if closed and rng.random() < 0.5:
        riichi = Riichi.DOUBLE if rng.random() < 0.05 else Riichi.RIICHI
    seat, round_ = Wind(rng.randint(1, 4)), Wind(rng.randint(1, 2))
    rinshan = tsumo and has_kan and rng.random() < 0.15
    chankan = (not tsumo and not rinshan and rng.random() < 0.03
               and sum(t.kind == hand.win_tile.kind for t in hand.all_tiles) == 1)
    last = not rinshan and not chankan and rng.random() < 0.04
    blessing = None
    if closed and not hand.melds and riichi is Riichi.NONE and rng.random() < 0.02:
        if tsumo:
            blessing = Blessing.TENHOU if seat is Wind.EAST else Blessing.CHIIHOU
    left = [4] * 34
    for t in hand.all_tiles:
        left[t.kind] -= 1

    def indicator() -> Tile:
        kind = rng.choice([k for k in range(34) if left[k]])
        left[kind] -= 1
        return TILES[kind]

    indicators = tuple(indicator() for _ in range(1 + sum(m.is_kan for m in hand.melds)))
    ura = tuple(indicator() for _ in indicators) if riichi is not Riichi.NONE else ()
    return WinContext(
        tsumo=tsumo, seat_wind=seat, round_wind=round_, riichi=riichi,
        ippatsu=riichi is not Riichi.NONE and rng.random() < 0.2, rinshan=rinshan,
        chankan=chankan, last_tile=last, blessing=blessing, dora_indicators=indicators,
        ura_indicators=ura, honba=rng.randint(0, 3), riichi_sticks=rng.randint(0, 2))


def random_wins(seed: int, count: int) -> Iterator[tuple[Hand, WinContext]]:
    rng = random.Random(seed)
    for _ in range(count):
        hand = random_hand(rng)
        yield hand, random_context(rng, hand)
