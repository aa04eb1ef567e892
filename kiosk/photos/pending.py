"""Photos waiting for the player to confirm them (win captures, teaching photos): the newest
`keep`, and no more than `max_bytes` of decoded pixels and JPEG together, the oldest going
first. Every item counts, the newest too: one larger than `max_bytes` alone is refused (413)
rather than kept (issue 35)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar

from kiosk.errors import ApiError
from kiosk.photos.camera import Still

MB = 1024 * 1024


class _WithPhoto(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def still(self) -> Still: ...


T = TypeVar("T", bound=_WithPhoto)


class PendingPhotos(Generic[T]):
    def __init__(self, keep: int, max_bytes: int):
        self.keep = keep
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: T) -> T:
        size = _size(item)
        if size > self.max_bytes:
            raise ApiError(413, f"the photo takes {size / MB:,.0f} MB decoded; at most "
                           f"{self.max_bytes // MB:,} MB of photos can wait for confirmation",
                           code="photo_too_large_to_keep",
                           words={"mb": f"{size / MB:,.0f}", "most": self.max_bytes // MB})
        with self._lock:
            self._items[item.id] = item
            while len(self._items) > self.keep or self._nbytes() > self.max_bytes:
                self._items.popitem(last=False)  # never the new one: it fits alone
        return item

    def get(self, item_id: str) -> T | None:
        with self._lock:
            return self._items.get(item_id)

    def pop(self, item_id: str) -> T | None:
        with self._lock:
            return self._items.pop(item_id, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def nbytes(self) -> int:
        with self._lock:
            return self._nbytes()

    def _nbytes(self) -> int:
        return sum(_size(i) for i in self._items.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __iter__(self) -> Iterator[str]:
        """The ids, oldest first."""
        with self._lock:
            return iter(list(self._items))


def _size(item: _WithPhoto) -> int:
    return item.still.image.nbytes + len(item.still.jpeg)
