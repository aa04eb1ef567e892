"""The serial honba / points display: protocol -> link -> supervisor, and a simulator.

For the kiosk::

    display = make_display(config.display, on_status=push_to_ui)  # NullDisplay for "none"
    display.start()
    display.publish(DisplayState(...))  # after every table change; never blocks
    display.status().as_dict()          # state off / connecting / connected / stalled / ...
    display.stop()
"""

from device.display.protocol import Capability, ProtocolError
from device.display.state import DisplayState, DisplayStateError
from device.display.supervisor import (
    Display,
    DisplayStatus,
    DisplaySupervisor,
    LinkState,
    NullDisplay,
    make_display,
)

__all__ = [
    "Capability", "Display", "DisplayState", "DisplayStateError", "DisplayStatus",
    "DisplaySupervisor", "LinkState", "NullDisplay", "ProtocolError", "make_display",
]
