"""From the camera to tiles: the camera, photos waiting for a player to confirm, the recogniser,
and teaching it a table's own set."""
