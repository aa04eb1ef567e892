"""The kiosk's services, built from the configuration in one place, started and stopped explicitly.

`build_services` only constructs objects (nothing opens a camera, port or model); `start()` opens
them and `stop()` closes them in reverse order. The app reads them from `app.extensions["kiosk"]`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.config import KioskConfig
from kiosk.photos.camera import CameraService
from kiosk.photos.captures import CaptureStore
from kiosk.photos.recognition import RecogniserService
from kiosk.photos.teaching import TeachingShots
from kiosk.serve.live import LiveUpdates
from kiosk.store.persist import open_log
from kiosk.table.display import DisplayService
from kiosk.table.game import GameService
from kiosk.web.security import Security
from scorer.rules import RULESETS

if TYPE_CHECKING:  # imported where a parlor is configured: a kiosk alone never loads it
    from kiosk.parlor.link.outbox import Outbox

log = logging.getLogger(__name__)


@dataclass
class Services:
    config: KioskConfig
    security: Security
    live: LiveUpdates
    game: GameService
    camera: CameraService
    recogniser: RecogniserService
    captures: CaptureStore
    display: DisplayService
    log_handle: Any = None
    teaching: TeachingShots = field(default_factory=TeachingShots)  # photos to confirm
    outbox: Outbox | None = None  # when a parlor is configured

    def start(self, *, camera: bool = True, recogniser: bool = True) -> Services:
        self.game.ensure_game()
        self.live.publish(self.game.state_json)
        self.display.start()
        self.display.publish(self.game)
        if camera:
            self.camera.start()
        if recogniser:
            self.recogniser.start()
        if self.outbox is not None:
            self.outbox.start()
        return self

    def stop(self) -> None:
        self.live.close()
        self.camera.stop()
        self.recogniser.stop()
        self.display.stop()
        if self.outbox is not None:  # before the store it reads closes
            self.outbox.stop()
        close = getattr(self.log_handle, "close", None)
        if close:
            close()


def build_services(config: KioskConfig) -> Services:
    data = Path(config.data_dir)
    data.mkdir(parents=True, exist_ok=True)
    live = LiveUpdates()
    event_log, handle = open_log(config.database_url)
    game = GameService(event_log, RULESETS[config.ruleset], on_change=live.changed)
    display = DisplayService(config.display)
    live.on_change(lambda: display.publish(game))
    recogniser = RecogniserService(config.models_dir, taught_dir=data / "taught")
    outbox = None
    if config.parlor_url:  # no parlor: no thread, no network, the kiosk as it always was
        from kiosk.parlor.link.client import ParlorLink
        from kiosk.parlor.link.outbox import Outbox

        outbox = Outbox(event_log, ParlorLink(config.parlor_url, config.parlor_table,
                                              config.parlor_token))
        live.on_change(outbox.wake)
    return Services(
        config=config,
        security=Security(data, config.pin),
        live=live,
        game=game,
        camera=CameraService(config.camera),
        recogniser=recogniser,
        captures=CaptureStore(data / "captures", save=config.save_captures,
                              on_confirm=lambda c, tiles: recogniser.learn_capture(
                                  c.still.image, tiles)),
        display=display,
        log_handle=handle,
        outbox=outbox,
    )
