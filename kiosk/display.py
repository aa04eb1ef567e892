"""The serial honba / points display (`device.display`), fed the table state after every change."""

from __future__ import annotations

import logging
from typing import Any

from device.display import DisplayState, DisplayStateError, make_display

log = logging.getLogger(__name__)


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
        s = game.table.state
        try:
            state = DisplayState(
                round_wind=min(s.round_wind.value, 4), hand_number=s.hand_number,
                honba=s.honba, riichi_sticks=s.sticks, dealer=s.dealer,
                points=(s.points[0], s.points[1], s.points[2], s.points[3]),
                riichi=(0 in s.riichi, 1 in s.riichi, 2 in s.riichi, 3 in s.riichi))
        except DisplayStateError as e:  # e.g. points beyond what a display can show
            log.warning("display: cannot show this state: %s", e)
            return
        self.display.publish(state)

    def status(self) -> dict[str, Any]:
        return {"configured": self.configured, **self.display.status().as_dict()}
