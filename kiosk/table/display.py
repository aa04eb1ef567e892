"""The serial honba / points display (`device.display`), fed the table state after every change."""

from __future__ import annotations

import logging
from typing import Any

from device.display import DisplayState, DisplayStateError, make_display
from scorer.table import TableState

log = logging.getLogger(__name__)


def display_state(s: TableState) -> DisplayState:
    """What the display shows of the table: one point and one riichi flag a seat, so a
    three-player table goes out as three seats (the protocol's RTC frame), never a fourth
    seat of zero points."""
    return DisplayState(
        round_wind=min(s.round_wind.value, 4), hand_number=s.hand_number, honba=s.honba,
        riichi_sticks=s.sticks, dealer=s.dealer, points=tuple(s.points),
        riichi=tuple(seat in s.riichi for seat in range(s.seats)))


class DisplayService:
    def __init__(self, url: str):
        self.url = url
        self.display = make_display(url)

    @property
    def configured(self) -> bool:
        return self.url.strip().lower() not in ("", "none", "off")

    def start(self) -> None:
        self.display.start()

    def stop(self) -> None:
        self.display.stop()

    def publish(self, game: Any) -> None:
        """Send the current table (never blocks: the display's link keeps only the latest)."""
        if not game.has_game:
            return
        try:
            state = display_state(game.table.state)
        except DisplayStateError as e:  # e.g. points beyond what a display can show
            log.warning("display: cannot show this state: %s", e)
            return
        self.display.publish(state)

    def status(self) -> dict[str, Any]:
        return {"configured": self.configured, **self.display.status().as_dict()}
